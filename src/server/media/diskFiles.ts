import { constants } from 'node:fs';
import { chmod, mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { ServiceError } from '../errors';
import { PRIVATE_FILE_MODE } from '../storage/privateModes';
import { contentTypeOf } from './contentType';
import type { MediaFiles } from './mediaFiles';
import { mediaDir } from './paths';
import { sendFile } from './sendFile';

/** The dot hides a work folder from the media server, which serves plain names only. */
export const WORK_PREFIX = '.work-';

/**
 * Files under `DATA_DIR/media/<videoId>/`. A transcode reads the source in place and writes in a
 * work folder beside it; outputs are renamed into the folder only when all of them exist.
 */
export function diskFiles(dataDir: string): MediaFiles {
  return {
    bucket: undefined,
    async transcodeSpace(videoId, sourceFile) {
      const dir = mediaDir(dataDir, videoId);
      const work = await mkdtemp(join(dir, WORK_PREFIX));
      return {
        source: join(dir, sourceFile),
        work,
        async publish(files) {
          for (const file of files) {
            // ffmpeg writes with the umask's mode.
            await chmod(join(work, file), PRIVATE_FILE_MODE);
            await rename(join(work, file), join(dir, file));
          }
        },
        dispose: () => rm(work, { recursive: true, force: true }),
      };
    },
    async downloadSpace(videoId) {
      return { dir: mediaDir(dataDir, videoId), keep: async () => undefined, dispose: async () => undefined };
    },
    async size(videoId, file) {
      return stat(join(mediaDir(dataDir, videoId), file)).then(
        (info) => info.size,
        () => undefined,
      );
    },
    async head(videoId, file, bytes) {
      const handle = await open(join(mediaDir(dataDir, videoId), file), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
      if (!handle) return undefined;
      try {
        const buffer = Buffer.alloc(bytes);
        const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async remove(videoId, files) {
      for (const file of files) await rm(join(mediaDir(dataDir, videoId), file), { force: true });
    },
    async send(req, res, videoId, file) {
      const dir = resolve(mediaDir(dataDir, videoId));
      const path = resolve(join(dir, file));
      // The names were checked by the caller; this guards against any later change to how they are built.
      if (!path.startsWith(dir + sep)) throw new ServiceError('NOT_FOUND', 'no such media file');
      await sendFile(req, res, path, contentTypeOf(path));
    },
    close: () => undefined,
  };
}

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError } from '../errors';
import type { Bucket } from '../storage/bucket';
import { PRIVATE_DIR_MODE } from '../storage/privateModes';
import { contentTypeOf } from './contentType';
import type { MediaFiles } from './mediaFiles';
import { sendStored } from './sendFile';

/** The key of a video's file in the bucket; tus keeps uploads at the bucket's top level (`<32 hex>`, `<32 hex>.info`). */
export function mediaKey(videoId: string, file: string): string {
  return `media/${videoId}/${file}`;
}

/**
 * Files in the S3 bucket. ffmpeg cannot seek in an object, so a transcode copies the source into
 * a private folder under `scratch` (in DATA_DIR), writes its outputs there, uploads them, and
 * removes the folder whatever the outcome. Media are streamed from the bucket with ranged GETs
 * through the service (docs/storage.md says why not a presigned redirect).
 */
export function bucketFiles(bucket: Bucket, scratch: string): MediaFiles {
  const scratchFolder = async (videoId: string) => {
    await mkdir(scratch, { recursive: true, mode: PRIVATE_DIR_MODE });
    return mkdtemp(join(scratch, `${videoId}-`));
  };
  return {
    bucket,
    async transcodeSpace(videoId, sourceFile) {
      const folder = await scratchFolder(videoId);
      const work = join(folder, 'out');
      try {
        await mkdir(work, { mode: PRIVATE_DIR_MODE });
        const source = join(folder, sourceFile);
        await bucket.download(mediaKey(videoId, sourceFile), source);
        return {
          source,
          work,
          async publish(files) {
            for (const file of files) await bucket.upload(mediaKey(videoId, file), join(work, file));
          },
          dispose: () => rm(folder, { recursive: true, force: true }),
        };
      } catch (error) {
        await rm(folder, { recursive: true, force: true });
        throw error;
      }
    },
    async downloadSpace(videoId) {
      const dir = await scratchFolder(videoId);
      return {
        dir,
        keep: (name) => bucket.upload(mediaKey(videoId, name), join(dir, name)),
        dispose: () => rm(dir, { recursive: true, force: true }),
      };
    },
    async size(videoId, file) {
      return (await bucket.head(mediaKey(videoId, file)))?.size;
    },
    async head(videoId, file, bytes) {
      const key = mediaKey(videoId, file);
      const info = await bucket.head(key);
      if (!info || info.size === 0) return info && Buffer.alloc(0);
      return Buffer.concat(await (await bucket.read(key, 0, Math.min(bytes, info.size) - 1)).toArray());
    },
    remove: (videoId, files) => bucket.removeKeys(files.map((file) => mediaKey(videoId, file))),
    async send(req, res, videoId, file) {
      const key = mediaKey(videoId, file);
      const info = await bucket.head(key);
      if (!info) throw new ServiceError('NOT_FOUND', 'no such media file');
      await sendStored(
        req,
        res,
        { ...info, read: (start, end) => bucket.read(key, start, end), close: async () => undefined },
        contentTypeOf(file),
      );
    },
    close: () => bucket.close(),
  };
}

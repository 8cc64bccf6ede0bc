import { readdirSync, rmSync } from 'node:fs';
import { copyFile, link, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import type { ServiceContext } from '../context';
import { WORK_PREFIX } from '../media/diskFiles';
import { mediaDir } from '../media/paths';
import type { PlayFile } from '../storage/playFiles';
import type { Video } from '../storage/videos';
import { runMediaTool } from './ffmpeg';
import { makePictures, POSTER_FILE } from './pictures';
import { markTranscoded } from './pipeline';
import { ProcessLedger } from './processLedger';
import { probeMedia, type MediaInfo } from './probe';
import { chooseRenditions, transcodeArgs } from './renditions';

/** Work folders of a video's transcodes cut off by a crash (a finished or failed one removes its own). */
export function removeWorkFolders(dataDir: string, videoId: string): void {
  const dir = mediaDir(dataDir, videoId);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(WORK_PREFIX)) rmSync(join(dir, name), { recursive: true, force: true });
}

/** The video moved on while it was being transcoded (another step won the transition). */
class TranscodeSupersededError extends Error {
  override readonly name = 'TranscodeSupersededError';
}

/** Transcodes run side by side (the transcode pool; downloads take no cores); each ffmpeg gets its share of the cores, so they do not fight over them. */
function ffmpegThreads(concurrency: number): number {
  return Math.max(1, Math.floor(availableParallelism() / concurrency));
}

/** needHandleSepcial: the source, untouched, is the one play file; a hard link costs no space. */
async function keepOriginal(source: string, sourceFile: string, work: string, info: MediaInfo): Promise<PlayFile[]> {
  const ext = extname(sourceFile).toLowerCase();
  const file = `original${/^\.[a-z0-9]{1,8}$/.test(ext) ? ext : ''}`;
  await link(source, join(work, file)).catch(() => copyFile(source, join(work, file)));
  return [{ file, bitrate: info.bitrateKbps, label: 'Original', height: Math.min(info.displayWidth, info.displayHeight) }];
}

async function transcodeRenditions(
  service: ServiceContext,
  source: string,
  work: string,
  info: MediaInfo,
  threads: number,
  signal: AbortSignal,
  ledger: ProcessLedger,
): Promise<PlayFile[]> {
  const renditions = chooseRenditions(info.displayWidth, info.displayHeight);
  const outputs = renditions.map((rendition) => ({ rendition, path: join(work, rendition.file) }));
  await runMediaTool(service.config.ffmpegPath, transcodeArgs(source, outputs, threads, service.config.maxSourcePixels), signal, ledger);
  return renditions.map((rendition) => ({
    file: rendition.file,
    bitrate: rendition.videoKbps,
    label: rendition.label,
    height: rendition.size,
  }));
}

/**
 * The transcode step for a video in status 6: probe, renditions (or the original), pictures,
 * then status 1 with everything recorded at once. Outputs are written in a private work folder
 * (beside the files, or scratch space under DATA_DIR when they live in S3) and published only
 * when all of them exist, so a failure or an interruption leaves no partial file where the media
 * server looks, and the work folder is removed either way. A transcode still running
 * after TRANSCODE_TIMEOUT_MS is killed and fails (status 7).
 */
export async function transcodeVideo(service: ServiceContext, video: Video, stop: AbortSignal): Promise<void> {
  const limit = AbortSignal.timeout(service.config.transcodeTimeoutMs);
  try {
    await transcodeWithin(service, video, AbortSignal.any([stop, limit]));
  } catch (error) {
    // The service stopping re-queues the job; running out of time ends it in status 7.
    if (limit.aborted && !stop.aborted)
      throw new Error(`transcoding took longer than TRANSCODE_TIMEOUT_MS (${service.config.transcodeTimeoutMs} ms)`);
    throw error;
  }
}

async function transcodeWithin(service: ServiceContext, video: Video, signal: AbortSignal): Promise<void> {
  const { ffprobePath, ffmpegPath, processingConcurrency, maxSourcePixels } = service.config;
  const threads = ffmpegThreads(processingConcurrency);
  const ledger = new ProcessLedger(service.config.dataDir);

  const space = await service.files.transcodeSpace(video.id, video.sourceFile);
  try {
    const { source, work } = space;
    const info = await probeMedia(ffprobePath, source, signal, maxSourcePixels, ledger);
    const playFiles = video.needHandleSpecial
      ? await keepOriginal(source, video.sourceFile, work, info)
      : await transcodeRenditions(service, source, work, info, threads, signal, ledger);
    const pictures = await makePictures(ffmpegPath, source, work, info, threads, maxSourcePixels, signal, ledger);
    signal.throwIfAborted();
    const outputs = [...playFiles.map((play) => play.file), ...pictures];
    // Measured in the work space, which is local even when the files then go to S3.
    const bytes = (await Promise.all(outputs.map((name) => stat(join(work, name))))).reduce((sum, file) => sum + file.size, 0);
    await space.publish(outputs);
    // Nothing is needed from the work space once published; removed before status 1, so whoever
    // sees status 1 finds no work folder left (removing it after raced a reader of the folder).
    await space.dispose();
    if (!(await markTranscoded(service, video.id, { duration: info.duration, posterFile: POSTER_FILE, playFiles, bytes }))) {
      throw new TranscodeSupersededError(`video ${video.id} left status 6 while it was transcoded`);
    }
    service.log.info('video transcoded', {
      videoId: video.id,
      duration: info.duration,
      shown: `${info.displayWidth}x${info.displayHeight}`,
      playFiles: playFiles.map((play) => play.file),
    });
  } finally {
    // Idempotent: a second call after the one above finds nothing.
    await space.dispose();
  }
}

import { copyFile, link, mkdtemp, rename, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import type { ServiceContext } from '../context';
import { mediaDir } from '../media/paths';
import type { VideoRow } from '../storage/videos';
import { runMediaTool } from './ffmpeg';
import { makePictures, POSTER_FILE } from './pictures';
import { markTranscoded, type PlayFile } from './pipeline';
import { probeMedia, type MediaInfo } from './probe';
import { chooseRenditions, transcodeArgs } from './renditions';

/** The video moved on while it was being transcoded (another step won the transition). */
class TranscodeSupersededError extends Error {
  override readonly name = 'TranscodeSupersededError';
}

/** Jobs run side by side; each ffmpeg gets its share of the cores, so they do not fight over them. */
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

async function transcodeRenditions(service: ServiceContext, source: string, work: string, info: MediaInfo, threads: number, signal: AbortSignal): Promise<PlayFile[]> {
  const renditions = chooseRenditions(info.displayWidth, info.displayHeight);
  const outputs = renditions.map((rendition) => ({ rendition, path: join(work, rendition.file) }));
  await runMediaTool(service.config.ffmpegPath, transcodeArgs(source, outputs, threads, service.config.maxSourcePixels), signal);
  return renditions.map((rendition) => ({ file: rendition.file, bitrate: rendition.videoKbps, label: rendition.label, height: rendition.size }));
}

/**
 * The transcode step for a video in status 6: probe, renditions (or the original), pictures,
 * then status 1 with everything recorded at once. Outputs are written in a private work folder
 * and renamed into the media folder only when all of them exist, so a failure or an
 * interruption leaves no partial file where the media server looks. A transcode still running
 * after TRANSCODE_TIMEOUT_MS is killed and fails (status 7).
 */
export async function transcodeVideo(service: ServiceContext, video: VideoRow, stop: AbortSignal): Promise<void> {
  const limit = AbortSignal.timeout(service.config.transcodeTimeoutMs);
  try {
    await transcodeWithin(service, video, AbortSignal.any([stop, limit]));
  } catch (error) {
    // The service stopping re-queues the job; running out of time ends it in status 7.
    if (limit.aborted && !stop.aborted) throw new Error(`transcoding took longer than TRANSCODE_TIMEOUT_MS (${service.config.transcodeTimeoutMs} ms)`);
    throw error;
  }
}

async function transcodeWithin(service: ServiceContext, video: VideoRow, signal: AbortSignal): Promise<void> {
  const { ffprobePath, ffmpegPath, processingConcurrency, maxSourcePixels } = service.config;
  const dir = mediaDir(service.config.dataDir, video.id);
  const source = join(dir, video.source_file);
  const threads = ffmpegThreads(processingConcurrency);

  const info = await probeMedia(ffprobePath, source, signal, maxSourcePixels);
  // The dot hides the work folder from the media server, which serves plain names only.
  const work = await mkdtemp(join(dir, '.work-'));
  try {
    const playFiles = video.need_handle_special
      ? await keepOriginal(source, video.source_file, work, info)
      : await transcodeRenditions(service, source, work, info, threads, signal);
    const pictures = await makePictures(ffmpegPath, source, work, info, threads, maxSourcePixels, signal);
    signal.throwIfAborted();
    for (const file of [...playFiles.map((play) => play.file), ...pictures]) await rename(join(work, file), join(dir, file));
    if (!markTranscoded(service, video.id, { duration: info.duration, posterFile: POSTER_FILE, playFiles })) {
      throw new TranscodeSupersededError(`video ${video.id} left status 6 while it was transcoded`);
    }
    service.log.info('video transcoded', {
      videoId: video.id,
      duration: info.duration,
      shown: `${info.displayWidth}x${info.displayHeight}`,
      playFiles: playFiles.map((play) => play.file),
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

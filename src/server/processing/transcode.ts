import { readdirSync, rmSync } from 'node:fs';
import { copyFile, link, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import type { ServiceContext } from '../context';
import { WORK_PREFIX } from '../media/diskFiles';
import { mediaDir } from '../media/paths';
import type { PlayFile } from '../storage/playFiles';
import type { Video } from '../storage/videos';
import { VideoStatus } from '../../shared/videoStatus';
import { MediaToolError } from './ffmpeg';
import { makePictures, POSTER_FILE } from './pictures';
import { markTranscoded } from './pipeline';
import { remuxPlan } from './playability';
import { ProcessLedger } from './processLedger';
import { probeMedia, type MediaInfo } from './probe';
import { remux, REMUX_FILE } from './remux';
import { chooseRenditions } from './renditions';
import { addRemainingRungs, encodeRenditions, playFileOf, TranscodeSupersededError, type TranscodeRun } from './rungs';

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

/** Transcodes run side by side (the transcode pool; downloads take no cores); each ffmpeg gets its share of the cores, so they do not fight over them. */
function ffmpegThreads(concurrency: number): number {
  return Math.max(1, Math.floor(availableParallelism() / concurrency));
}

/** needHandleSepcial: the source, untouched, is the one play file; a hard link costs no space. */
async function keepOriginal(run: TranscodeRun): Promise<PlayFile[]> {
  const { video, space, info } = run;
  const ext = extname(video.sourceFile).toLowerCase();
  const file = `original${/^\.[a-z0-9]{1,8}$/.test(ext) ? ext : ''}`;
  await link(space.source, join(space.work, file)).catch(() => copyFile(space.source, join(space.work, file)));
  return [{ file, bitrate: info.bitrateKbps, label: 'Original', height: shortSide(info), segmented: false }];
}

const shortSide = (info: MediaInfo) => Math.min(info.displayWidth, info.displayHeight);

/**
 * A source a browser plays as it is, remuxed into a faststart MP4: the first play file, in the
 * time it takes to copy the file. Undefined when the source needs encoding, or when ffmpeg could
 * not remux what ffprobe called playable: the encode follows then.
 */
async function remuxForBrowsers(run: TranscodeRun): Promise<PlayFile | undefined> {
  const { service, video, space, info, signal, ledger } = run;
  const plan = remuxPlan(info.codecs);
  if (!plan) return undefined;
  const output = join(space.work, REMUX_FILE);
  try {
    const outcome = await remux(service.config.ffmpegPath, space.source, output, plan, signal, ledger);
    if (outcome.audioDropped) service.log.warn('audio left out of the play files', { videoId: video.id, reason: outcome.audioDropped });
    // The copy lasts as long as the source, so its overall bitrate follows from its size (no second ffprobe on the way to status 1).
    const { size } = await stat(output);
    return {
      file: REMUX_FILE,
      bitrate: Math.round((size * 8) / info.duration / 1000),
      label: 'Original',
      height: shortSide(info),
      segmented: false,
    };
  } catch (error) {
    if (!(error instanceof MediaToolError)) throw error;
    service.log.warn('remux failed; the source is encoded instead', { videoId: video.id, reason: error.message });
    return undefined;
  }
}

/**
 * A source browsers cannot play as it is: its lightest rung alone, the quickest encode that makes
 * it playable (a phone on a slow network starts there anyway); the rest of the ladder follows,
 * best first, as for a remux.
 */
async function encodeLightest(run: TranscodeRun): Promise<{ playFiles: PlayFile[]; more: boolean }> {
  const ladder = chooseRenditions(run.info.displayWidth, run.info.displayHeight);
  const lightest = ladder[ladder.length - 1]!;
  // Every core: someone waits for this file, while the rungs after it are throughput (their job's
  // share). Two threads took 10.9 s of wall time instead of 16.7 s for the same CPU (benchmarks.md).
  const waitedFor = { ...run, threads: availableParallelism() };
  await encodeRenditions(waitedFor, [{ rendition: lightest, path: join(run.space.work, lightest.file) }]);
  return { playFiles: [playFileOf(lightest)], more: ladder.length > 1 };
}

/** The play files status 1 comes with, and whether rungs follow them. */
async function firstPlayFiles(run: TranscodeRun): Promise<{ playFiles: PlayFile[]; more: boolean }> {
  if (run.video.needHandleSpecial) return { playFiles: await keepOriginal(run), more: false };
  const remuxed = await remuxForBrowsers(run);
  return remuxed ? { playFiles: [remuxed], more: true } : encodeLightest(run);
}

/**
 * Runs both side by side (the pictures beside the first play files: on the way to status 1 each
 * is mostly waiting for ffmpeg to start and read). The first failure stops the other (its ffmpeg
 * killed) and is thrown once both have ended, so no ffmpeg still writes into the work folder.
 */
async function sideBySide<A, B>(
  signal: AbortSignal,
  first: (signal: AbortSignal) => Promise<A>,
  second: (signal: AbortSignal) => Promise<B>,
): Promise<[A, B]> {
  const local = new AbortController();
  const both = AbortSignal.any([signal, local.signal]);
  const stopOther = (error: unknown): never => {
    local.abort(error);
    throw error;
  };
  const [a, b] = await Promise.allSettled([first(both).catch(stopOther), second(both).catch(stopOther)]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}

/**
 * The first play files become visible together with the pictures, the duration, status 1 and its
 * queued callback, or not at all. The files are published first: a crash in between leaves the
 * video in 6, whose job then starts over.
 */
async function publishFirst(run: TranscodeRun, playFiles: readonly PlayFile[], pictures: readonly string[]): Promise<void> {
  const { service, video, space, info, signal } = run;
  signal.throwIfAborted();
  const outputs = [...playFiles.map((play) => play.file), ...pictures];
  // Measured in the work space, which is local even when the files then go to S3.
  const bytes = (await Promise.all(outputs.map((name) => stat(join(space.work, name))))).reduce((sum, file) => sum + file.size, 0);
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
}

/**
 * The transcode step, for a video in status 6, or in 1 for the remaining rungs. Probe; then the
 * first playable file (the source itself for needHandleSepcial, a remux of a source browsers play,
 * or else the ladder's lightest rung) with the pictures made beside it; status 1 with all of it at
 * once. The ladder's other rungs follow in the next turn of the queue, in one pass (see rungs.ts).
 * Outputs are written in a private work folder (beside the files, or scratch space under DATA_DIR
 * when they live in S3) and published only once complete, so a failure or an interruption leaves
 * no partial file where the media server looks, and the work folder is removed either way. A job
 * still running after TRANSCODE_TIMEOUT_MS is killed and fails: status 7 before status 1; after
 * it, the video keeps the files it lists.
 */
export async function transcodeVideo(service: ServiceContext, video: Video, stop: AbortSignal): Promise<void | 'continues'> {
  const limit = AbortSignal.timeout(service.config.transcodeTimeoutMs);
  try {
    return await transcodeWithin(service, video, AbortSignal.any([stop, limit]));
  } catch (error) {
    // The service stopping re-queues the job; running out of time ends it in status 7.
    if (limit.aborted && !stop.aborted)
      throw new Error(`transcoding took longer than TRANSCODE_TIMEOUT_MS (${service.config.transcodeTimeoutMs} ms)`);
    throw error;
  }
}

async function transcodeWithin(service: ServiceContext, video: Video, signal: AbortSignal): Promise<void | 'continues'> {
  const { ffprobePath, processingConcurrency, maxSourcePixels } = service.config;
  // needHandleSepcial's one file is the whole of it: nothing follows status 1.
  if (video.status === VideoStatus.Normal && video.needHandleSpecial) return;
  const ledger = new ProcessLedger(service.config.dataDir);
  const space = await service.files.transcodeSpace(video.id, video.sourceFile);
  try {
    const info = await probeMedia(ffprobePath, space.source, signal, maxSourcePixels, ledger);
    const run: TranscodeRun = { service, video, space, info, threads: ffmpegThreads(processingConcurrency), signal, ledger };
    if (video.status === VideoStatus.Normal) return await addRemainingRungs(run);
    const { ffmpegPath } = service.config;
    const [first, pictures] = await sideBySide(
      signal,
      (both) => firstPlayFiles({ ...run, signal: both }),
      (both) => makePictures(ffmpegPath, space.source, space.work, info, run.threads, maxSourcePixels, both, ledger),
    );
    await publishFirst(run, first.playFiles, pictures);
    return first.more ? 'continues' : undefined;
  } finally {
    // Idempotent: a second call after the one in publishFirst finds nothing.
    await space.dispose();
  }
}

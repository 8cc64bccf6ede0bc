import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import type { TranscodeSpace } from '../media/mediaFiles';
import type { PlayFile } from '../storage/playFiles';
import type { Video } from '../storage/videos';
import { MediaToolError, runMediaTool } from './ffmpeg';
import { writeFragmentedDuration } from './fragmentedDuration';
import { markRungsAdded } from './pipeline';
import type { ProcessLedger } from './processLedger';
import type { MediaInfo } from './probe';
import { REMUX_FILE } from './remux';
import { chooseRenditions, LADDER_FOOT, transcodeArgs, type Rendition, type RenditionOutput } from './renditions';

/** Everything one transcode job works with, handed from step to step. */
export interface TranscodeRun {
  service: ServiceContext;
  video: Video;
  space: TranscodeSpace;
  info: MediaInfo;
  /** ffmpeg's threads: this job's share of the cores. */
  threads: number;
  signal: AbortSignal;
  ledger: ProcessLedger;
}

/** The video moved on while it was being transcoded (another step won the transition). */
export class TranscodeSupersededError extends Error {
  override readonly name = 'TranscodeSupersededError';
}

export function playFileOf(rendition: Rendition): PlayFile {
  return { file: rendition.file, bitrate: rendition.videoKbps, label: rendition.label, height: rendition.size, segmented: true };
}

/**
 * Encodes renditions in one ffmpeg run, then writes each one's length into its moov (see
 * fragmentedDuration.ts), before anything stores them. A source whose picture decodes but whose
 * sound does not (an unknown codec, broken packets) still gets play files: the run is repeated
 * without audio, and the reason logged.
 */
export async function encodeRenditions(run: TranscodeRun, outputs: readonly RenditionOutput[]): Promise<void> {
  await encodeWithSound(run, outputs);
  for (const { path, rendition } of outputs) {
    run.signal.throwIfAborted();
    if (!(await writeFragmentedDuration(path))) {
      run.service.log.warn('rung left without its length in the moov', { videoId: run.video.id, file: rendition.file });
    }
  }
}

async function encodeWithSound(run: TranscodeRun, outputs: readonly RenditionOutput[]): Promise<void> {
  const { service, space, threads, signal, ledger, info } = run;
  const { ffmpegPath, maxSourcePixels, x264Preset } = service.config;
  const encoder = { preset: x264Preset };
  const encode = (audio: boolean) =>
    runMediaTool(ffmpegPath, transcodeArgs(space.source, outputs, threads, maxSourcePixels, encoder, { audio }), signal, ledger);
  if (!info.hasAudio) {
    await encode(false);
    return;
  }
  try {
    await encode(true);
  } catch (error) {
    if (!(error instanceof MediaToolError)) throw error;
    await encode(false);
    service.log.warn('audio left out of the play files', { videoId: run.video.id, reason: error.message });
  }
}

/**
 * Whether a video in status 1 still lacks rungs its transcode jobs will add: it lists the remux,
 * or fewer rungs than the ladder from its best rung down holds. Read from the list alone, so a job
 * cut off in status 1 is known to have work left without probing the source. One list is
 * ambiguous: the ladder's foot alone (240p) is the whole ladder of a source under 360 lines, or the
 * lightest rung published first of a taller one; it counts as pending, and the resumed job probes
 * the source and finds out (at worst one probe for nothing).
 */
export function rungsPending(needHandleSpecial: boolean, listed: readonly PlayFile[]): boolean {
  if (needHandleSpecial || listed.length === 0) return false;
  if (listed.some((play) => play.file === REMUX_FILE)) return true;
  const best = Math.max(...listed.map((play) => play.height));
  if (listed.length === 1 && best === LADDER_FOOT) return true;
  // A square of the best rung's size fits exactly the rungs from it down.
  return listed.length < chooseRenditions(best, best).length;
}

/**
 * Every rung of the ladder the video does not list yet, in one ffmpeg run: the source is decoded
 * once and split to one encoder per rung (decoding the source again for each rung cost 5 to 16 %
 * more CPU over the ladder in the bench). All outputs end with the source, so they are published and listed
 * together, in one transaction, best first as always (PlayURL is the best listed file, so it moves
 * to the best rung then; the lightest, published first for a source that needed encoding, stays
 * last). That transaction also retires the remux (`Original`) the rungs replace: unlisted, but
 * still served for REMUX_GRACE_S to a player that started on it, then removed by the sweep
 * (retiredFiles.ts), so neither the list nor a URL handed out before names a file that is gone.
 * A job cut off in the middle runs again from here.
 */
export async function addRemainingRungs(run: TranscodeRun): Promise<void> {
  const { service, video, space, info } = run;
  const listed = new Set((await service.stores.playFiles.forVideo(video.id)).map((play) => play.file));
  const replaces = listed.has(REMUX_FILE) ? { file: REMUX_FILE, bytes: (await service.files.size(video.id, REMUX_FILE)) ?? 0 } : undefined;
  const missing = chooseRenditions(info.displayWidth, info.displayHeight).filter((candidate) => !listed.has(candidate.file));
  if (missing.length === 0) return;
  const outputs = missing.map((rendition) => ({ rendition, path: join(space.work, rendition.file) }));
  await encodeRenditions(run, outputs);
  const sizes = await Promise.all(outputs.map(async ({ path }) => (await stat(path)).size));
  await space.publish(missing.map((rendition) => rendition.file));
  // As before status 1: whoever sees the rungs listed finds no work folder left.
  await space.dispose();
  const rungs = missing.map((rendition, index) => ({ playFile: playFileOf(rendition), bytes: sizes[index]! }));
  if (!(await markRungsAdded(service, video.id, rungs, replaces))) {
    throw new TranscodeSupersededError(`video ${video.id} left status 1 while its rungs were added`);
  }
  service.log.info('rungs added', { videoId: video.id, files: missing.map((rendition) => rendition.file) });
}

import type { ServiceContext } from '../context';
import type { JobKind } from '../storage/jobs';
import type { Stores } from '../storage/stores';
import type { PlayFile } from '../storage/playFiles';
import { VideoStatus } from '../../shared/videoStatus';

/**
 * The video state machine's steps, each one transaction, so a crash leaves a video either
 * before or after a step, never between its status and its queued work. Every status change they
 * make is a row of the transition table (shared/videoTransitions.ts), which the video store
 * holds each write to; the main way through it:
 *
 *   type 1: 8 ─upload stored─▶ 5
 *   type 2: 2 ─download starts─▶ 3 ─stored─▶ 5, or ─fails─▶ 4 (callback)
 *   5 ─transcode starts─▶ 6 ─done─▶ 1 (callback), or ─fails─▶ 7 (callback)
 *   1 ─the remaining rungs─▶ 1 (one more transcode job: no callback, and a failure leaves 1)
 *
 * A step that may be part of a caller's larger transaction runs in `service.transaction`, which
 * joins the caller's when it was handed the caller's context (`ctx`): its `ctx.stores` are then
 * the transaction's. A write through the service's own stores beside the open transaction would
 * wait for it for ever (SQLite); the test build refuses it.
 */

interface JobStep {
  waiting: VideoStatus;
  working: VideoStatus;
  failed: typeof VideoStatus.DownloadFailed | typeof VideoStatus.TranscodingFailed;
  /**
   * A status in which jobs of this kind still run: after the first playable file (status 1) the
   * transcode queues one more job for the remaining rungs. Such a job, cut off or stopped, is queued again
   * while rungs are missing (rungsPending), its video staying in this status.
   */
  continuesIn?: VideoStatus;
}

/** Each kind of job as a walk through the state table: waiting ─▶ working ─▶ (run's outcome) or failed; a retry goes failed ─▶ waiting. */
export const JOB_STEPS: Record<JobKind, JobStep> = {
  download: { waiting: VideoStatus.WaitingForDownload, working: VideoStatus.Downloading, failed: VideoStatus.DownloadFailed },
  transcode: {
    waiting: VideoStatus.WaitingForTranscoding,
    working: VideoStatus.Transcoding,
    failed: VideoStatus.TranscodingFailed,
    continuesIn: VideoStatus.Normal,
  },
};

/** Statuses reported to the app's callback: the ends of processing. */
export const CALLBACK_STATUSES: readonly VideoStatus[] = [VideoStatus.Normal, VideoStatus.DownloadFailed, VideoStatus.TranscodingFailed];

/** Queues the video's next step under its app, whose share of the pool it counts against. */
export async function enqueueJob(service: ServiceContext, videoId: string, kind: JobKind): Promise<void> {
  const { stores } = service;
  const { appId } = (await stores.videos.get(videoId))!;
  await stores.jobs.enqueue({ videoId, appId, kind }, service.now());
  stores.afterCommit(() => service.signals.emit('jobQueued', videoId));
}

/**
 * The source file is complete on disk (uploaded or downloaded): record it and queue transcoding.
 * Idempotent: returns false when the video had already moved on, so a repeated finish
 * (tus's onUploadFinish re-run at start-up, say) changes nothing. `downloadedBytes`: the size of
 * a source the service downloaded, which the app's storage quota counts (an upload's is in its row).
 */
export async function markSourceStored(
  service: ServiceContext,
  videoId: string,
  sourceFile: string,
  options: { needHandleSpecial?: boolean; downloadedBytes?: number } = {},
): Promise<boolean> {
  const now = service.now();
  return service.transaction(async ({ stores }) => {
    const from = [VideoStatus.NotUploaded, VideoStatus.Downloading];
    if (!(await stores.videos.transition(videoId, from, VideoStatus.WaitingForTranscoding, '', now))) return false;
    await stores.videos.recordSource(videoId, sourceFile, options.needHandleSpecial ?? false, now, options.downloadedBytes);
    await stores.jobs.enqueue({ videoId, appId: (await stores.videos.get(videoId))!.appId, kind: 'transcode' }, now);
    stores.afterCommit(() => service.signals.emit('jobQueued', videoId));
    return true;
  });
}

/**
 * Ends processing in `to` (1, 4 or 7) and queues the status callback in the same transaction.
 * Returns false when the video was not in one of `from`.
 */
export async function markProcessed(
  service: ServiceContext,
  videoId: string,
  from: readonly VideoStatus[],
  to: (typeof CALLBACK_STATUSES)[number],
  reason = '',
): Promise<boolean> {
  const now = service.now();
  return service.transaction(async ({ stores }) => {
    if (!(await stores.videos.transition(videoId, from, to, reason, now))) return false;
    await stores.callbacks.enqueue(videoId, (await stores.videos.get(videoId))!.appId, to, now);
    stores.afterCommit(() => {
      if (to === VideoStatus.Normal) service.log.info('video ready', { videoId });
      else service.log.warn('video processing failed', { videoId, status: to, reason });
      service.signals.emit('callbackQueued', videoId);
    });
    return true;
  });
}

export interface TranscodeResult {
  /** Seconds, rounded to the millisecond. */
  duration: number;
  posterFile: string;
  playFiles: readonly PlayFile[];
  /** What the play files and pictures take together (the app's storage quota counts it). */
  bytes: number;
}

/** Thrown inside a transaction to undo it when the video left the expected state meanwhile. */
class StaleStep extends Error {
  override readonly name = 'StaleStep';
}

/**
 * Transcoding finished: the play files, duration and poster become visible together with
 * status 1 and its queued callback, or not at all. Returns false when the video was no longer
 * transcoding (nothing is written then).
 */
export async function markTranscoded(service: ServiceContext, videoId: string, result: TranscodeResult): Promise<boolean> {
  try {
    await service.transaction(async (ctx) => {
      await ctx.stores.playFiles.replace(videoId, result.playFiles);
      await ctx.stores.videos.recordTranscode(videoId, result.duration, result.posterFile, result.bytes, service.now());
      if (!(await markProcessed(ctx, videoId, [VideoStatus.Transcoding], VideoStatus.Normal))) throw new StaleStep();
    });
    return true;
  } catch (error) {
    if (error instanceof StaleStep) return false;
    throw error;
  }
}

/**
 * The remaining rungs of a video already in status 1: listed together with their bytes, and the
 * file in `replaces` (the remux they outrank) unlisted in the same transaction, so the list only
 * ever names files that exist. The remux is retired, not removed: a player that started on it
 * goes on reading it for REMUX_GRACE_S, and the sweep (retiredFiles.ts) removes it after that.
 * Its bytes leave the app's count now. Returns false when the video is no longer in status 1
 * (nothing is written).
 */
export async function markRungsAdded(
  service: ServiceContext,
  videoId: string,
  rungs: readonly { playFile: PlayFile; bytes: number }[],
  replaces: { file: string; bytes: number } | undefined,
): Promise<boolean> {
  const now = service.now();
  return service.transaction(async ({ stores }) => {
    if ((await stores.videos.get(videoId))?.status !== VideoStatus.Normal) return false;
    const removeAt = now + service.config.remuxGraceS * 1000;
    await stores.playFiles.add(
      videoId,
      rungs.map((rung) => rung.playFile),
      replaces && { files: [replaces.file], removeAt },
    );
    const added = rungs.reduce((sum, rung) => sum + rung.bytes, 0);
    await stores.videos.addRenditionBytes(videoId, added - (replaces?.bytes ?? 0), now);
    return true;
  });
}

export type RetryOutcome = { retried: JobKind } | { refused: VideoStatus | undefined };

/**
 * Puts a video whose processing failed (4 or 7) back in the queue of its failed step, in one
 * transaction: 4 ─▶ 2 with a download job, 7 ─▶ 5 with a transcode job. A running service takes
 * the job up within its queue poll. Any other status (or no video) is refused and nothing changes.
 */
export async function retryFailedStep(stores: Stores, videoId: string, now: number): Promise<RetryOutcome> {
  return stores.transaction(async (tx) => {
    const video = await tx.videos.get(videoId);
    const kind = (Object.keys(JOB_STEPS) as JobKind[]).find((candidate) => JOB_STEPS[candidate].failed === video?.status);
    if (!video || !kind || !(await tx.videos.transition(videoId, [video.status], JOB_STEPS[kind].waiting, '', now)))
      return { refused: video?.status };
    await tx.jobs.enqueue({ videoId, appId: video.appId, kind }, now);
    return { retried: kind };
  });
}

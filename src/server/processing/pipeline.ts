import type { ServiceContext } from '../context';
import { VideoStatus } from '../storage/videos';

/**
 * The video state machine's steps, each one transaction, so a crash leaves a video either
 * before or after a step, never between its status and its queued work.
 *
 *   type 1: 8 ─upload stored─▶ 5
 *   type 2: 2 ─download starts─▶ 3 ─stored─▶ 5, or ─fails─▶ 4 (callback)
 *   5 ─transcode starts─▶ 6 ─done─▶ 1 (callback), or ─fails─▶ 7 (callback)
 */

export type JobKind = 'download' | 'transcode';

/** Statuses reported to the app's callback: the ends of processing. */
export const CALLBACK_STATUSES: readonly VideoStatus[] = [VideoStatus.Normal, VideoStatus.DownloadFailed, VideoStatus.TranscodingFailed];

export function enqueueJob(service: ServiceContext, videoId: string, kind: JobKind): void {
  const now = service.now();
  service.db
    .prepare(
      `INSERT INTO jobs (video_id, kind, created_at, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    )
    .run(videoId, kind, now, now);
  service.signals.emit('jobQueued', videoId);
}

/**
 * The source file is complete on disk (uploaded or downloaded): record it and queue transcoding.
 * Idempotent: returns false when the video had already moved on, so a repeated finish
 * (tus's onUploadFinish re-run at start-up, say) changes nothing.
 */
export function markSourceStored(
  service: ServiceContext,
  videoId: string,
  sourceFile: string,
  options: { needHandleSpecial?: boolean } = {},
): boolean {
  const moved = service.db.transaction(() => {
    const from = [VideoStatus.NotUploaded, VideoStatus.Downloading];
    if (!service.videos.transition(videoId, from, VideoStatus.WaitingForTranscoding)) return false;
    service.db
      .prepare('UPDATE videos SET source_file = ?, need_handle_special = ? WHERE id = ?')
      .run(sourceFile, options.needHandleSpecial ? 1 : 0, videoId);
    const now = service.now();
    service.db
      .prepare(`INSERT INTO jobs (video_id, kind, created_at, updated_at) VALUES (?, 'transcode', ?, ?) ON CONFLICT DO NOTHING`)
      .run(videoId, now, now);
    return true;
  })();
  if (moved) service.signals.emit('jobQueued', videoId);
  return moved;
}

/**
 * Ends processing in `to` (1, 4 or 7) and queues the status callback in the same transaction.
 * Returns false when the video was not in one of `from`.
 */
export function markProcessed(
  service: ServiceContext,
  videoId: string,
  from: readonly VideoStatus[],
  to: (typeof CALLBACK_STATUSES)[number],
  reason = '',
): boolean {
  const moved = service.db.transaction(() => {
    if (!service.videos.transition(videoId, from, to, reason)) return false;
    const video = service.videos.get(videoId)!;
    const now = service.now();
    service.db
      .prepare('INSERT INTO callbacks (video_id, app_id, video_status, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(videoId, video.app_id, to, now, now, now);
    return true;
  })();
  if (moved) {
    if (to === VideoStatus.Normal) service.log.info('video ready', { videoId });
    else service.log.warn('video processing failed', { videoId, status: to, reason });
    service.signals.emit('callbackQueued', videoId);
  }
  return moved;
}

export interface PlayFile {
  file: string;
  /** Kilobits per second. */
  bitrate: number;
  label: string;
  /** The short side in pixels (what the `p` of a label counts). */
  height: number;
}

export interface TranscodeResult {
  /** Seconds, rounded to the millisecond. */
  duration: number;
  posterFile: string;
  playFiles: readonly PlayFile[];
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
export function markTranscoded(service: ServiceContext, videoId: string, result: TranscodeResult): boolean {
  const record = service.db.transaction(() => {
    service.db.prepare('DELETE FROM play_files WHERE video_id = ?').run(videoId);
    const insert = service.db.prepare('INSERT INTO play_files (video_id, file, bitrate, label, height) VALUES (?, ?, ?, ?, ?)');
    for (const play of result.playFiles) insert.run(videoId, play.file, play.bitrate, play.label, play.height);
    service.db
      .prepare('UPDATE videos SET duration = ?, poster_file = ? WHERE id = ?')
      .run(result.duration, result.posterFile, videoId);
    if (!markProcessed(service, videoId, [VideoStatus.Transcoding], VideoStatus.Normal)) throw new StaleStep();
  });
  try {
    record();
    return true;
  } catch (error) {
    if (error instanceof StaleStep) return false;
    throw error;
  }
}

import type { ServiceContext } from '../context';
import { ServiceError, isServiceError } from '../errors';
import { markSourceStored } from '../processing/pipeline';
import type { UploadStore } from '../storage/uploads';
import { VideoStatus } from '../../shared/videoStatus';
import { sourceFileName } from './sourceFile';
import type { UploadFiles } from './uploadFiles';

/**
 * Every byte of the upload is stored. The store's length, not the row's: an upload created with a
 * deferred length (a recording) has none until its last PATCH declares it.
 */
const isWhole = (upload: { offset: number; size?: number | undefined }): upload is { offset: number; size: number } =>
  upload.size !== undefined && upload.offset === upload.size;

/**
 * Turns a complete tus upload into the video's source file and moves the video 8 → 5.
 * tus answers the client even when its finish hook fails, so this must be safe to repeat: it
 * runs from the hook, again at start-up for every complete upload whose video still waits,
 * and when a page or a new upload finds such an upload.
 */
export class UploadFinisher {
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly service: ServiceContext,
    private readonly rows: UploadStore,
    private readonly files: UploadFiles,
  ) {}

  /** Concurrent calls for one upload share one run, so two finishes never race on the same files. */
  finish(uploadId: string): Promise<void> {
    let running = this.inFlight.get(uploadId);
    if (!running) {
      // One read of the upload's state for the whole finish (the request's, when a request runs it).
      running = this.files.within(() => this.finishOnce(uploadId)).finally(() => this.inFlight.delete(uploadId));
      this.inFlight.set(uploadId, running);
    }
    return running;
  }

  /** True when every byte of the upload is stored (and it can be finished). */
  async isComplete(uploadId: string): Promise<boolean> {
    const row = await this.rows.get(uploadId);
    if (!row) return false;
    try {
      return isWhole(await this.files.store.getUpload(uploadId));
    } catch (error) {
      // A bucket that cannot be reached says nothing about the upload: the request answers 503.
      if (isServiceError(error)) throw error;
      return false;
    }
  }

  /** Finishes every complete upload whose video still waits: the hook may not have run (crash, kill) before a restart. */
  async recheck(): Promise<number> {
    let finished = 0;
    for (const row of await this.rows.unfinishedOfWaitingVideos()) {
      if (!(await this.isComplete(row.id))) continue;
      try {
        await this.finish(row.id);
        finished++;
        this.service.log.info('upload finished at start-up', { uploadId: row.id, videoId: row.videoId });
      } catch (error) {
        this.service.log.error('upload could not be finished at start-up', {
          uploadId: row.id,
          videoId: row.videoId,
          error: String(error),
        });
      }
    }
    return finished;
  }

  /** Waits for finishes under way, so the database is not closed beneath them. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private async finishOnce(uploadId: string): Promise<void> {
    const row = await this.rows.get(uploadId);
    if (!row) throw new ServiceError('NOT_FOUND', 'the upload was replaced or removed');
    if (row.finishedAt !== null) return;
    const video = await this.service.stores.videos.get(row.videoId);
    if (!video || video.status !== VideoStatus.NotUploaded)
      throw new ServiceError('WRONG_STATE', 'the video is not waiting for an uploaded file');
    const upload = await this.files.store.getUpload(uploadId);
    if (!isWhole(upload)) throw new ServiceError('WRONG_STATE', 'the upload is not complete');
    const name = sourceFileName(row.fileName, row.fileType);
    await this.files.placeSource(upload, video.id, name);
    await this.service.transaction(async (ctx) => {
      // A deferred length held the ticket's limit in the quota until now: the real one replaces it.
      await ctx.stores.uploads.markFinished(uploadId, upload.size, this.service.now());
      await markSourceStored(ctx, video.id, name, { needHandleSpecial: video.needHandleSpecial });
    });
    this.service.metrics.uploadsCompleted.inc({ app_id: row.appId });
    this.service.log.info('upload stored', { uploadId, videoId: video.id, size: upload.size });
  }
}

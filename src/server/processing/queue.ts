import type { ServiceContext } from '../context';
import { VideoStatus, type VideoRow } from '../storage/videos';
import { downloadSource } from './download';
import { JobStore, type JobRow } from './jobs';
import { markProcessed, markSourceStored, type JobKind } from './pipeline';
import { transcodeVideo } from './transcode';

/** Does a job's work for a video already moved into the job's working status; ends in its next status. */
export type JobRunner = (service: ServiceContext, video: VideoRow, signal: AbortSignal) => Promise<void>;

interface JobStep {
  waiting: VideoStatus;
  working: VideoStatus;
  failed: typeof VideoStatus.DownloadFailed | typeof VideoStatus.TranscodingFailed;
}

/** Each kind of job as a walk through the state table: waiting ─▶ working ─▶ (run's outcome) or failed. */
export const JOB_STEPS: Record<JobKind, JobStep> = {
  download: { waiting: VideoStatus.WaitingForDownload, working: VideoStatus.Downloading, failed: VideoStatus.DownloadFailed },
  transcode: { waiting: VideoStatus.WaitingForTranscoding, working: VideoStatus.Transcoding, failed: VideoStatus.TranscodingFailed },
};

export const DEFAULT_RUNNERS: Record<JobKind, JobRunner> = {
  async download(service, video, signal) {
    const file = await downloadSource(service, video, signal);
    if (!markSourceStored(service, video.id, file)) throw new Error(`video left status ${VideoStatus.Downloading} during its download`);
  },
  transcode: transcodeVideo,
};

/** A job interrupted this many times (each start-up finding it still running) fails instead of looping. */
export const MAX_JOB_ATTEMPTS = 3;

/** The database notices queued jobs from another process, or a lost nudge, within this time. */
const POLL_MS = 5_000;
const MAX_REASON_CHARS = 500;

/** Every error here carries its cause in the message (ffmpeg's stderr tail, the download failure code and detail). */
function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON_CHARS);
}

/**
 * At start-up, before any worker runs: jobs still 'running' were cut off by a crash or a kill.
 * They go back to the queue with their videos back in the waiting status (3 → 2, 6 → 5), so they
 * resume from the start of their step; one cut off {@link MAX_JOB_ATTEMPTS} times fails instead.
 * Only one service may own a DATA_DIR at a time, since another one's running jobs would look cut off.
 */
export function recoverInterruptedJobs(service: ServiceContext): void {
  const jobs = new JobStore(service.db);
  const now = service.now();
  for (const job of jobs.running()) {
    const step = JOB_STEPS[job.kind];
    if (job.attempts >= MAX_JOB_ATTEMPTS) {
      const reason = `interrupted ${job.attempts} times; given up`;
      service.db.transaction(() => {
        markProcessed(service, job.video_id, [step.working, step.waiting], step.failed, reason);
        jobs.finish(job.id, 'failed', reason, now);
      })();
      continue;
    }
    // The step's outcome and the job's 'done' are written one after the other, so a crash between
    // them leaves a running job whose video has already moved on: that step finished.
    if (service.videos.get(job.video_id)?.status !== step.working) {
      jobs.finish(job.id, 'done', '', now);
      continue;
    }
    service.db.transaction(() => {
      service.videos.transition(job.video_id, [step.working], step.waiting);
      jobs.requeue(job.id, now);
    })();
    service.log.warn('processing job resumed after an interruption', { jobId: job.id, videoId: job.video_id, kind: job.kind, attempts: job.attempts });
  }
}

export interface WorkerOptions {
  /** Jobs run at once. */
  concurrency: number;
  /** @default DEFAULT_RUNNERS */
  runners?: Record<JobKind, JobRunner>;
}

/**
 * Runs queued jobs from the database, at most `concurrency` at a time. A 'jobQueued' signal
 * wakes it at once; a slow poll covers everything else. `stop()` aborts running jobs (their
 * ffmpeg or download is killed) and puts them back in the queue, so the next start resumes them.
 */
export class ProcessingWorker {
  private readonly service: ServiceContext;
  private readonly jobs: JobStore;
  private readonly concurrency: number;
  private readonly runners: Record<JobKind, JobRunner>;
  private readonly running = new Map<number, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private wakeScheduled = false;
  private active = false;

  constructor(service: ServiceContext, options: WorkerOptions) {
    this.service = service;
    this.jobs = new JobStore(service.db);
    this.concurrency = options.concurrency;
    this.runners = options.runners ?? DEFAULT_RUNNERS;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.service.signals.on('jobQueued', this.wake);
    this.timer = setInterval(this.wake, POLL_MS);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.active = false;
    this.service.signals.off('jobQueued', this.wake);
    clearInterval(this.timer);
    for (const { controller } of this.running.values()) controller.abort(new Error('the service is stopping'));
    await Promise.all([...this.running.values()].map(({ done }) => done));
  }

  /**
   * Deferred: a job may be queued inside a transaction that has not committed yet (registration),
   * and claiming it within that transaction would tie the job to its outcome.
   */
  private readonly wake = (): void => {
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      try {
        this.fill();
      } catch (error) {
        // A busy or failing database must not end the process; the next poll tries again.
        this.service.log.error('processing queue could not claim a job', { error: String(error) });
      }
    });
  };

  private fill(): void {
    while (this.active && this.running.size < this.concurrency) {
      const job = this.jobs.claim(this.service.now());
      if (!job) return;
      const controller = new AbortController();
      const done = this.execute(job, controller.signal).finally(() => {
        this.running.delete(job.id);
        this.wake();
      });
      this.running.set(job.id, { controller, done });
    }
  }

  private async execute(job: JobRow, signal: AbortSignal): Promise<void> {
    const { service, jobs } = this;
    const step = JOB_STEPS[job.kind];
    const fields = { jobId: job.id, videoId: job.video_id, kind: job.kind, attempt: job.attempts };
    if (!service.videos.transition(job.video_id, [step.waiting], step.working)) {
      const reason = `video is not in status ${step.waiting}`;
      jobs.finish(job.id, 'failed', reason, service.now());
      service.log.warn('processing job dropped', { ...fields, reason });
      return;
    }
    service.log.info('processing job started', fields);
    try {
      // Re-read so the runner sees what the transition (and any earlier step) stored.
      await this.runners[job.kind](service, service.videos.get(job.video_id)!, signal);
      jobs.finish(job.id, 'done', '', service.now());
      service.log.info('processing job done', fields);
    } catch (error) {
      if (signal.aborted) {
        service.db.transaction(() => {
          service.videos.transition(job.video_id, [step.working], step.waiting);
          jobs.requeue(job.id, service.now());
        })();
        service.log.info('processing job interrupted; it resumes at the next start', fields);
        return;
      }
      const reason = reasonOf(error);
      service.log.warn('processing job failed', { ...fields, reason });
      service.db.transaction(() => {
        markProcessed(service, job.video_id, [step.working], step.failed, reason);
        jobs.finish(job.id, 'failed', reason, service.now());
      })();
    }
  }
}

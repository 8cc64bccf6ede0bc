import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { isServiceError } from '../errors';
import type { Job, JobKind, JobStore } from '../storage/jobs';
import { type Video } from '../storage/videos';
import { VideoStatus } from '../../shared/videoStatus';
import { noSpaceReason } from '../outages';
import { downloadRoom } from '../quota/quotas';
import { downloadSource } from './download';
import { enqueueJob, JOB_STEPS, markProcessed, markSourceStored } from './pipeline';
import { appsAtShare, jobPools, type JobPool } from './pools';
import { ProcessLedger } from './processLedger';
import { removeRetiredFiles } from './retiredFiles';
import { rungsPending } from './rungs';
import { removeWorkFolders, transcodeVideo } from './transcode';

/** What a job's run came to, for the job duration metric (operator/metrics.ts). */
export type JobOutcome = 'done' | 'failed' | 'requeued' | 'dropped' | 'lost';

/**
 * Does a job's work for a video already moved into the job's working status; ends in its next
 * status. `'continues'`: the video reached the status its step continues in with work left (a
 * transcode's remaining rungs); the job is recorded done and a new one queued behind the others,
 * so that work waits its turn and the videos already waiting for their first playable file go
 * first.
 */
export type JobRunner = (service: ServiceContext, video: Video, signal: AbortSignal) => Promise<void | 'continues'>;

const JOB_KINDS = Object.keys(JOB_STEPS) as JobKind[];

const DEFAULT_RUNNERS: Record<JobKind, JobRunner> = {
  async download(service, video, signal) {
    const space = await service.files.downloadSpace(video.id);
    try {
      const quotaRoom = await downloadRoom(service, video.appId);
      const file = await downloadSource(service, video, signal, quotaRoom === undefined ? {} : { quotaRoom }, space.dir);
      // Its size, counted against the app's storageBytes as an upload's is, read before keep() may move it to S3.
      const { size } = await stat(join(space.dir, file));
      await space.keep(file);
      if (!(await markSourceStored(service, video.id, file, { downloadedBytes: size })))
        throw new Error(`video left status ${VideoStatus.Downloading} during its download`);
    } finally {
      await space.dispose();
    }
  },
  transcode: transcodeVideo,
};

/** A job cut off this many times (its instance stopped or died while running it) fails instead of looping. */
export const MAX_JOB_ATTEMPTS = 3;

/** The database notices queued jobs from another process, or a lost nudge, within this time. */
const POLL_MS = 5_000;
const MAX_REASON_CHARS = 500;

/** Every error here carries its cause in the message (ffmpeg's stderr tail, the download failure code and detail); a full disk is said so in words. */
function reasonOf(error: unknown): string {
  return (noSpaceReason(error) ?? (error instanceof Error ? error.message : String(error))).slice(0, MAX_REASON_CHARS);
}

/**
 * Puts back the running jobs whose lease ran out before `before`: their instance died (a crash, a
 * kill, a lost machine) or, at start-up on SQLite, was this service's previous run. Each goes back
 * to the queue with its video back in the waiting status (3 → 2, 6 → 5), so it resumes from the
 * start of its step; one cut off {@link MAX_JOB_ATTEMPTS} times fails instead. Every write is
 * fenced on the lease having still run out, so of two instances noticing at once one acts, and a
 * holder that was only slow and renewed meanwhile keeps its job.
 */
async function resumeCutOffJobs(service: ServiceContext, before: number): Promise<void> {
  const { jobs, videos } = service.stores;
  const now = service.now();
  const fence = { expiredBefore: before };
  for (const job of await jobs.expired(before)) {
    const step = JOB_STEPS[job.kind];
    // A work folder this machine's earlier run left (another machine's is in its own DATA_DIR).
    if (job.kind === 'transcode') removeWorkFolders(service.config.dataDir, job.videoId);
    if (job.attempts >= MAX_JOB_ATTEMPTS) {
      const reason = `interrupted ${job.attempts} times; given up`;
      await service.transaction(async (ctx) => {
        if (await ctx.stores.jobs.finish(job, 'failed', reason, now, fence))
          await markProcessed(ctx, job.videoId, [step.working, step.waiting], step.failed, reason);
      });
      continue;
    }
    const video = await videos.get(job.videoId);
    const status = video?.status;
    // The step's outcome and the job's 'done' are written one after the other, so a job cut off
    // between them has a video that already moved on: that step finished. Unless rungs are still
    // to come to a video in status 1: its job goes back to the queue to add them (its status stays).
    const continues =
      video !== undefined &&
      status === step.continuesIn &&
      rungsPending(video.needHandleSpecial, await service.stores.playFiles.forVideo(video.id));
    if (status !== step.working && status !== step.waiting && !continues) {
      await jobs.finish(job, 'done', '', now, fence);
      continue;
    }
    const requeued = await service.transaction(async ({ stores }) => {
      if (!(await stores.jobs.requeue(job, now, fence))) return false;
      await stores.videos.transition(job.videoId, [step.working], step.waiting, '', now);
      stores.afterCommit(() => service.signals.emit('jobQueued', job.videoId));
      return true;
    });
    if (requeued)
      service.log.warn('processing job resumed after an interruption', {
        jobId: job.id,
        videoId: job.videoId,
        kind: job.kind,
        attempts: job.attempts,
      });
  }
}

/**
 * At start-up, before any worker runs. Media tools this machine's previous run left running are
 * ended (the process ledger in DATA_DIR). On an exclusive database (SQLite) every job still running
 * was cut off by that run and is put back at once; on a shared one (PostgreSQL) other instances
 * may hold running jobs, so only those whose lease ran out are (and the workers keep looking).
 */
export async function recoverInterruptedJobs(service: ServiceContext): Promise<void> {
  // The ffmpeg of a job cut off by SIGKILL may still run, writing into a work folder; end it first.
  new ProcessLedger(service.config.dataDir).endLeftovers(service.log);
  await resumeCutOffJobs(service, service.stores.exclusive ? Number.MAX_SAFE_INTEGER : service.now());
}

export interface WorkerOptions {
  /** Each kind's slots on this instance. @default jobPools(service.config) */
  pools?: Record<JobKind, JobPool>;
  /** @default DEFAULT_RUNNERS */
  runners?: Record<JobKind, JobRunner>;
}

/** A running job's abort reason when its lease was found taken back: another instance has it now. */
class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

/**
 * Runs queued jobs from the database: each kind in its own pool of slots, of which one app may
 * hold its share (`pools`), the apps taking turns for the free ones (JobStore.claim). A
 * 'jobQueued' signal wakes it at once; a slow poll covers everything else, and also puts back
 * jobs whose lease ran out (another instance died holding them) and removes replaced play files
 * whose grace is over (retiredFiles.ts). Each running job's lease is
 * renewed every third of JOB_LEASE_MS; a job whose lease was taken back meanwhile is aborted and
 * left to its new holder. `stop()` aborts running jobs (their ffmpeg or download is killed) and
 * puts them back in the queue, so the next start, or another instance, resumes them.
 */
export class ProcessingWorker {
  private readonly service: ServiceContext;
  private readonly jobs: JobStore;
  private readonly pools: Record<JobKind, JobPool>;
  private readonly runners: Record<JobKind, JobRunner>;
  private readonly running = new Map<number, { job: Job; controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private lastSweep = 0;
  private wakeScheduled = false;
  private filling = false;
  private fillRun: Promise<void> = Promise.resolve();
  private fillAgain = false;
  private active = false;
  /** No claims before this time: the bucket was unreachable, and jobs would only fail again at once. */
  private pausedUntil = 0;

  constructor(service: ServiceContext, options: WorkerOptions = {}) {
    this.service = service;
    this.jobs = service.stores.jobs;
    this.pools = options.pools ?? jobPools(service.config);
    this.runners = options.runners ?? DEFAULT_RUNNERS;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.service.signals.on('jobQueued', this.wake);
    this.timer = setInterval(this.wake, Math.min(POLL_MS, this.renewEveryMs()));
    this.timer.unref();
    this.renewTimer = setInterval(this.renewLeases, this.renewEveryMs());
    this.renewTimer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.active = false;
    this.service.signals.off('jobQueued', this.wake);
    clearInterval(this.timer);
    await this.fillRun;
    for (const { controller } of this.running.values()) controller.abort(new Error('the service is stopping'));
    await Promise.all([...this.running.values()].map(({ done }) => done));
    // Renewed until the jobs are back in the queue, so no other instance takes one too early.
    clearInterval(this.renewTimer);
  }

  private renewEveryMs(): number {
    return Math.floor(this.service.config.jobLeaseMs / 3);
  }

  private readonly renewLeases = (): void => {
    const { service, jobs } = this;
    for (const entry of this.running.values()) {
      const now = service.now();
      const leaseUntil = now + service.config.jobLeaseMs;
      jobs.renew(entry.job, leaseUntil, now).then(
        (held) => {
          if (held) entry.job.leaseUntil = leaseUntil;
          else if (!entry.controller.signal.aborted)
            entry.controller.abort(new LeaseLostError('its lease ran out and another instance took the job back'));
        },
        // Unrenewed, the lease runs out and another instance resumes the job; this one then stops it.
        (error: unknown) => {
          if (!service.outages.answer(error))
            service.log.warn('processing job lease not renewed', { jobId: entry.job.id, videoId: entry.job.videoId, error: String(error) });
        },
      );
    }
  };

  /**
   * Jobs are announced once their transaction has committed (afterCommit), so the claim can see
   * them; announcements in one turn of the event loop make one fill.
   */
  private readonly wake = (): void => {
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      if (this.filling) {
        this.fillAgain = true;
        return;
      }
      this.filling = true;
      this.fillRun = this.fill()
        // A busy or failing database must not end the process; the next poll tries again.
        // A lost database or a full disk is one line per outage (Outages), not one per poll.
        .catch((error: unknown) => {
          if (!this.service.outages.answer(error))
            this.service.log.error('processing queue could not claim a job', { error: String(error) });
        })
        .finally(() => {
          this.filling = false;
          if (this.fillAgain) {
            this.fillAgain = false;
            this.wake();
          }
        });
    });
  };

  /** One fill at a time, so claims never overshoot a pool or an app's share of it. */
  private async fill(): Promise<void> {
    const { service } = this;
    if (service.now() - this.lastSweep >= this.renewEveryMs()) {
      this.lastSweep = service.now();
      await resumeCutOffJobs(service, this.lastSweep);
      await removeRetiredFiles(service);
    }
    for (const kind of JOB_KINDS) await this.fillPool(kind);
  }

  private async fillPool(kind: JobKind): Promise<void> {
    const { service } = this;
    const pool = this.pools[kind];
    while (this.active && Date.now() >= this.pausedUntil) {
      const running = [...this.running.values()].map((entry) => entry.job).filter((job) => job.kind === kind);
      if (running.length >= pool.concurrency) return;
      const now = service.now();
      const job = await this.jobs.claim(now, now + service.config.jobLeaseMs, { kind, exceptApps: appsAtShare(running, pool) });
      if (!job) return;
      if (!this.active) {
        // Stopped while claiming: the job goes back untouched for the next start.
        await this.jobs.requeue(job, service.now());
        return;
      }
      const controller = new AbortController();
      // An outcome that could not be recorded (the database lost meanwhile) leaves the job claimed:
      // its lease runs out and it is resumed, as after a crash.
      const done = this.execute(job, controller.signal)
        .catch((error: unknown) => {
          if (!service.outages.answer(error))
            service.log.error('processing job outcome not recorded', { jobId: job.id, videoId: job.videoId, error: String(error) });
        })
        .finally(() => {
          this.running.delete(job.id);
          this.wake();
        });
      this.running.set(job.id, { job, controller, done });
    }
  }

  private async execute(job: Job, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const outcome = await this.run(job, signal);
    this.service.metrics.jobDuration.observe({ kind: job.kind, outcome }, (performance.now() - started) / 1000);
  }

  private async run(job: Job, signal: AbortSignal): Promise<JobOutcome> {
    const { service, jobs } = this;
    const step = JOB_STEPS[job.kind];
    const fields = { jobId: job.id, videoId: job.videoId, kind: job.kind, attempt: job.attempts };
    const { videos } = service.stores;
    const moved = await videos.transition(job.videoId, [step.waiting], step.working, '', service.now());
    // A job queued again after its video reached the status it continues in (a transcode's rungs) runs on from there.
    const continuing = !moved && step.continuesIn !== undefined && (await videos.get(job.videoId))?.status === step.continuesIn;
    if (!moved && !continuing) {
      const reason = `video is not in status ${step.waiting}`;
      await jobs.finish(job, 'failed', reason, service.now());
      service.log.warn('processing job dropped', { ...fields, reason });
      return 'dropped';
    }
    service.log.info('processing job started', fields);
    try {
      // Re-read so the runner sees what the transition (and any earlier step) stored.
      const outcome = await this.runners[job.kind](service, (await videos.get(job.videoId))!, signal);
      if (outcome === 'continues') {
        // Done and its follower queued together: a crash between them would leave rungs nobody adds.
        await service.transaction(async (ctx) => {
          if (await ctx.stores.jobs.finish(job, 'done', '', service.now())) await enqueueJob(ctx, job.videoId, job.kind);
        });
      } else await jobs.finish(job, 'done', '', service.now());
      service.log.info('processing job done', fields);
      return 'done';
    } catch (error) {
      if (signal.reason instanceof LeaseLostError) {
        service.log.warn('processing job stopped: another instance took it back', fields);
        return 'lost';
      }
      // A lost bucket is not the video's fault: the job waits in the queue until the bucket is back.
      const bucketLost = isServiceError(error) && error.kind === 'STORAGE_UNAVAILABLE';
      if (signal.aborted || bucketLost) {
        const now = service.now();
        await service.transaction(async ({ stores }) => {
          if (await stores.jobs.requeue(job, now)) await stores.videos.transition(job.videoId, [step.working], step.waiting, '', now);
        });
        if (bucketLost) {
          this.pausedUntil = Date.now() + POLL_MS;
          service.log.warn('processing job put back: the S3 bucket cannot be reached', fields);
        } else service.log.info('processing job interrupted; it goes back to the queue', fields);
        return 'requeued';
      }
      const reason = reasonOf(error);
      service.log.warn('processing job failed', { ...fields, reason });
      // A full disk that failed the step would fail this record too (SQLite is in DATA_DIR): the reserve gives it room.
      await service.outages.withReserve(() =>
        service.transaction(async (ctx) => {
          // Only while this claim still holds the job: a new holder may be working on the video.
          if (await ctx.stores.jobs.finish(job, 'failed', reason, service.now()))
            await markProcessed(ctx, job.videoId, [step.working], step.failed, reason);
        }),
      );
      return 'failed';
    }
  }
}

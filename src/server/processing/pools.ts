import type { ServiceConfig } from '../config';
import type { Job, JobKind } from '../storage/jobs';

/** One instance's slots for one kind of job. */
export interface JobPool {
  /** Jobs of the pool's kind running at once. */
  concurrency: number;
  /** Of those, the most one app may hold, so that one app's queue or slow sources leave room for the others. */
  appMaxRunning: number;
}

/**
 * Downloads and transcodes each get their own pool: a download mostly waits on the network and a
 * transcode takes cores, and a slow source must never hold a transcode's slot. Each app may
 * hold `APP_MAX_RUNNING_JOBS` of a pool, by default half of it and at least one.
 */
export function jobPools(
  config: Pick<ServiceConfig, 'downloadConcurrency' | 'processingConcurrency' | 'appMaxRunningJobs'>,
): Record<JobKind, JobPool> {
  const pool = (concurrency: number): JobPool => ({
    concurrency,
    appMaxRunning: Math.min(concurrency, config.appMaxRunningJobs ?? Math.max(1, Math.floor(concurrency / 2))),
  });
  return { download: pool(config.downloadConcurrency), transcode: pool(config.processingConcurrency) };
}

/** The apps that already hold their share of `pool`, given the jobs of its kind running there. */
export function appsAtShare(running: Iterable<Job>, pool: JobPool): string[] {
  const held = new Map<string, number>();
  for (const job of running) held.set(job.appId, (held.get(job.appId) ?? 0) + 1);
  return [...held].filter(([, count]) => count >= pool.appMaxRunning).map(([appId]) => appId);
}

import { describe, expect, it } from 'vitest';
import type { Job } from '../storage/jobs';
import { appsAtShare, jobPools } from './pools';

describe('jobPools', () => {
  it('gives downloads and transcodes their own pools, each app half of one and at least 1', () => {
    expect(jobPools({ downloadConcurrency: 2, processingConcurrency: 2, appMaxRunningJobs: undefined })).toEqual({
      download: { concurrency: 2, appMaxRunning: 1 },
      transcode: { concurrency: 2, appMaxRunning: 1 },
    });
    expect(jobPools({ downloadConcurrency: 5, processingConcurrency: 1, appMaxRunningJobs: undefined })).toEqual({
      download: { concurrency: 5, appMaxRunning: 2 },
      transcode: { concurrency: 1, appMaxRunning: 1 },
    });
  });

  it('takes APP_MAX_RUNNING_JOBS for both pools, never more than a pool holds', () => {
    expect(jobPools({ downloadConcurrency: 8, processingConcurrency: 2, appMaxRunningJobs: 3 })).toEqual({
      download: { concurrency: 8, appMaxRunning: 3 },
      transcode: { concurrency: 2, appMaxRunning: 2 },
    });
  });
});

describe('appsAtShare', () => {
  const job = (appId: string) => ({ appId }) as Job;
  it('names the apps holding as many jobs as one app may', () => {
    const running = [job('app-a'), job('app-b'), job('app-a'), job('app-c'), job('app-c'), job('app-c')];
    expect(appsAtShare(running, { concurrency: 8, appMaxRunning: 2 }).sort()).toEqual(['app-a', 'app-c']);
    expect(appsAtShare([], { concurrency: 2, appMaxRunning: 1 })).toEqual([]);
  });
});

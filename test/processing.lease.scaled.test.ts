import { workerContext } from './support/workerContext';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../src/server/context';
import { markProcessed } from '../src/server/processing/pipeline';
import { ProcessingWorker, type JobRunner } from '../src/server/processing/queue';
import { VideoStatus } from '../src/shared/videoStatus';
import { insertVideoIn, newVideo } from './support/videos';

// Leases on running jobs, with two workers on one database as two instances would have them.
const LEASE_MS = 1_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function contextOn(dataDir: string): Promise<ServiceContext> {
  const context = await workerContext(dataDir, { JOB_LEASE_MS: String(LEASE_MS) });
  cleanups.push(() => context.stores.close());
  return context;
}

const ONE_SLOT = { concurrency: 1, appMaxRunning: 1 };

function startWorker(service: ServiceContext, transcode: JobRunner): ProcessingWorker {
  const worker = new ProcessingWorker(service, {
    pools: { download: ONE_SLOT, transcode: ONE_SLOT },
    runners: { download: transcode, transcode },
  });
  worker.start();
  cleanups.push(() => worker.stop());
  return worker;
}

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 20));
  }
}

/** Two contexts on one new database, as two instances; a video waiting for its queued transcode. */
async function twoInstancesAndAJob() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ovu-lease-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const contexts = [await contextOn(dataDir), await contextOn(dataDir)] as const;
  const video = newVideo();
  await insertVideoIn(contexts[0].stores, video, VideoStatus.WaitingForTranscoding);
  await contexts[0].stores.jobs.enqueue({ videoId: video.id, appId: video.appId, kind: 'transcode' }, Date.now());
  return { contexts, video };
}

const finishes: JobRunner = async (service, video) => {
  await markProcessed(service, video.id, [VideoStatus.Transcoding], VideoStatus.Normal);
};

describe('a running job whose holder died', () => {
  it('is taken up by another worker once its lease runs out, and finished there', async () => {
    const {
      contexts: [dead, alive],
      video,
    } = await twoInstancesAndAJob();
    // The holder claims the job and starts the step, then dies: nothing renews its lease.
    const claimedAt = Date.now();
    await dead.stores.jobs.claim(claimedAt, claimedAt + LEASE_MS);
    await dead.stores.videos.transition(video.id, [VideoStatus.WaitingForTranscoding], VideoStatus.Transcoding, '', claimedAt);

    const runs: number[] = [];
    startWorker(alive, async (service, current, signal) => {
      runs.push(Date.now() - claimedAt);
      await finishes(service, current, signal);
    });
    await until('status 1', async () => ((await alive.stores.videos.get(video.id))?.status === VideoStatus.Normal ? true : undefined));
    // The job is recorded done just after the step's status 1 is written: no job left running.
    await until('the job done', async () => ((await alive.stores.jobs.expired(Number.MAX_SAFE_INTEGER)).length === 0 ? true : undefined));
    // Not before the lease ran out, and once.
    expect(runs).toHaveLength(1);
    expect(runs[0]).toBeGreaterThanOrEqual(LEASE_MS);
  });

  it('stops a holder that finds its lease taken back, which then writes nothing', async () => {
    const {
      contexts: [slow, other],
      video,
    } = await twoInstancesAndAJob();
    let stoppedWith: unknown;
    startWorker(slow, async (_service, _video, signal) => {
      await new Promise((stopped) => signal.addEventListener('abort', stopped));
      stoppedWith = signal.reason;
      throw new Error('cut off');
    });
    const held = await until('the job claimed', async () => (await slow.stores.jobs.expired(Number.MAX_SAFE_INTEGER))[0]);
    // As another instance would after the lease ran out: back to the queue, claimed again.
    expect(await other.stores.jobs.requeue(held, Date.now())).toBe(true);
    const retaken = (await other.stores.jobs.claim(Date.now(), Date.now() + 60_000))!;
    expect(retaken).toMatchObject({ id: held.id, attempts: 2 });

    await until('the holder stopped', async () => stoppedWith);
    expect((stoppedWith as Error).name).toBe('LeaseLostError');
    // Neither the job nor the video took the stopped holder's failure.
    const [still] = await other.stores.jobs.expired(Number.MAX_SAFE_INTEGER);
    expect(still).toMatchObject({ id: held.id, state: 'running', attempts: 2 });
    expect((await other.stores.videos.get(video.id))?.status).toBe(VideoStatus.Transcoding);
  });
});

import { workerContext } from './support/workerContext';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../src/server/context';
import { enqueueJob, markProcessed, markSourceStored } from '../src/server/processing/pipeline';
import { MAX_JOB_ATTEMPTS, ProcessingWorker, type JobRunner } from '../src/server/processing/queue';
import type { Schema } from '../src/server/storage/schema';
import { VideoStatus } from '../src/shared/videoStatus';
import { openTestDatabase } from './support/database';
import { waitForLadder } from './support/ladder';
import { makeTestVideo } from './support/media';
import { startTestService, type TestService } from './support/service';
import { placeMedia, withFilesOf } from './support/storage';
import { insertVideoIn, newVideo } from './support/videos';

let work: string;
let clip: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-queue-'));
  clip = await makeTestVideo(work, 'clip.mp4', { width: 1280, height: 720, seconds: 4 });
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A service context on its own database connection, as a second process would have. */
const contextOn = (dataDir: string): Promise<ServiceContext> => workerContext(dataDir);

async function insertVideo(service: ServiceContext, status: VideoStatus, sourceFile = ''): Promise<string> {
  const video = newVideo();
  const id = video.id;
  await insertVideoIn(service.stores, video, status);
  if (sourceFile) await service.stores.videos.recordSource(id, sourceFile, false, Date.now());
  return id;
}

/** The clip as the video's stored source, where a service on `dataDir` keeps its files (disk or bucket). */
function placeSource(dataDir: string, videoId: string): Promise<void> {
  return withFilesOf(dataDir, (files) => placeMedia(files, videoId, 'source.mp4', clip));
}

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 10));
  }
}

type Db = Kysely<Schema>;
const statusOf = async (db: Db, id: string) =>
  (await db.selectFrom('videos').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const jobOf = (db: Db, id: string) =>
  db.selectFrom('jobs').select(['state', 'attempts', 'last_error']).where('video_id', '=', id).executeTakeFirstOrThrow();

/** What a crash mid-transcode leaves in `dataDir`: a video in `status` and its job still 'running', no worker. */
async function crashLeftRunningJob(dataDir: string, status: VideoStatus, attempts = 1): Promise<string> {
  const crashed = await contextOn(dataDir);
  const videoId = await insertVideo(crashed, status, 'source.mp4');
  await crashed.stores.close();
  const database = await openTestDatabase(dataDir);
  await database.db
    .insertInto('jobs')
    .values({ video_id: videoId, app_id: 'app-a', kind: 'transcode', state: 'running', attempts, created_at: 0, updated_at: 0 })
    .execute();
  await database.close();
  return videoId;
}

describe('jobs survive a stop', () => {
  it('a job still marked running after a crash is resumed at the next start and completes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    const videoId = await crashLeftRunningJob(dataDir, VideoStatus.Transcoding);
    await placeSource(dataDir, videoId);

    const service = await startTestService({ dataDir });
    try {
      // The job is marked done just after the video reaches 1, so wait for the job.
      await until(async () => ((await jobOf(service.db, videoId)).state === 'done' ? true : undefined), 'job done');
      expect(await jobOf(service.db, videoId)).toMatchObject({ state: 'done', attempts: 2 });
      expect(await statusOf(service.db, videoId)).toBe(1);
    } finally {
      await service.stop(true);
    }
  });

  it('a job that finished its step just before a crash is recorded done, not run again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    // The video reached 1 (its callback queued) but the crash came before the job was marked done.
    const videoId = await crashLeftRunningJob(dataDir, VideoStatus.Normal);

    const service = await startTestService({ dataDir });
    try {
      expect(await jobOf(service.db, videoId)).toMatchObject({ state: 'done', attempts: 1 });
      expect(await statusOf(service.db, videoId)).toBe(1);
    } finally {
      await service.stop(true);
    }
  });

  it('stopping the service aborts a running transcode and re-queues it; the next start finishes it', async () => {
    const first: TestService = await startTestService();
    const videoId = await insertVideo(first.context, VideoStatus.NotUploaded);
    await placeSource(first.dataDir, videoId);
    await markSourceStored(first.context, videoId, 'source.mp4');
    await until(async () => ((await statusOf(first.db, videoId)) === VideoStatus.Transcoding ? true : undefined), 'status 6');
    await first.stop();
    const database = await openTestDatabase(first.dataDir);
    // Back to waiting, nothing half-written published.
    expect(await statusOf(database.db, videoId)).toBe(VideoStatus.WaitingForTranscoding);
    expect((await jobOf(database.db, videoId)).state).toBe('queued');
    expect(await database.db.selectFrom('play_files').select('file').where('video_id', '=', videoId).execute()).toEqual([]);
    await database.close();

    const second = await startTestService({ dataDir: first.dataDir });
    try {
      await until(async () => ((await statusOf(second.db, videoId)) === 1 ? true : undefined), 'status 1');
      // An H.264 source: status 1 with its remux, then the rungs.
      await waitForLadder(second.db, videoId);
      expect((await second.context.stores.playFiles.forVideo(videoId)).map((play) => play.label)).toEqual(['720P', '480P', '360P']);
    } finally {
      await second.stop(true);
    }
  }, 120_000);

  it(`a job cut off ${MAX_JOB_ATTEMPTS} times fails with its reason instead of looping`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    const videoId = await crashLeftRunningJob(dataDir, VideoStatus.Transcoding, MAX_JOB_ATTEMPTS);

    const service = await startTestService({ dataDir });
    try {
      const query = new URLSearchParams({ ...service.auth(), Id: videoId });
      const reply = await (await fetch(`${service.address}/Api/Video/Get?${query}`)).json();
      expect(reply.Video.Status).toBe(7);
      expect((await service.context.stores.videos.get(videoId))!.statusReason).toBe(`interrupted ${MAX_JOB_ATTEMPTS} times; given up`);
      expect((await jobOf(service.db, videoId)).state).toBe('failed');
    } finally {
      await service.stop(true);
    }
  });
});

const TWO_SLOTS = { concurrency: 2, appMaxRunning: 2 };

describe('two workers on one database (as two processes would be)', () => {
  it('run every job exactly once, each never more than its concurrency at a time', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    const contexts = [await contextOn(dataDir), await contextOn(dataDir)];
    const { db, close } = await openTestDatabase(dataDir);
    const runs = new Map<string, number>();
    const inFlight = [0, 0];
    const peak = [0, 0];
    const runner =
      (worker: number): JobRunner =>
      async (service, video) => {
        runs.set(video.id, (runs.get(video.id) ?? 0) + 1);
        peak[worker] = Math.max(peak[worker]!, ++inFlight[worker]!);
        await new Promise((wake) => setTimeout(wake, 15));
        inFlight[worker]!--;
        await markProcessed(service, video.id, [VideoStatus.Transcoding], VideoStatus.Normal);
      };
    const ids: string[] = [];
    for (let n = 0; n < 16; n++) ids.push(await insertVideo(contexts[0]!, VideoStatus.WaitingForTranscoding));
    for (const id of ids) await enqueueJob(contexts[0]!, id, 'transcode');

    const workers = contexts.map(
      (context, index) =>
        new ProcessingWorker(context, {
          // One app's jobs only here: it may take both slots of each worker.
          pools: { download: TWO_SLOTS, transcode: TWO_SLOTS },
          runners: { download: runner(index), transcode: runner(index) },
        }),
    );
    for (const worker of workers) worker.start();
    try {
      await until(
        async () => ((await Promise.all(ids.map((id) => statusOf(db, id)))).every((status) => status === 1) ? true : undefined),
        'every video in status 1',
      );
    } finally {
      for (const worker of workers) await worker.stop();
    }
    expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
    expect(Math.max(...peak)).toBeLessThanOrEqual(2);
    expect(await Promise.all(ids.map((id) => jobOf(db, id)))).toEqual(ids.map(() => ({ state: 'done', attempts: 1, last_error: '' })));
    for (const context of contexts) await context.stores.close();
    await close();
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe("two workers with the default pools on one database: one app's 100 queued jobs", () => {
  it("leave each worker a slot, where another app's first job starts at once", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    const contexts = [await contextOn(dataDir), await contextOn(dataDir)];
    const started: { worker: number; appId: string }[] = [];
    const busy =
      (worker: number): JobRunner =>
      async (_service, video, signal) => {
        started.push({ worker, appId: video.appId });
        await new Promise((_done, fail) => signal.addEventListener('abort', () => fail(signal.reason)));
      };
    const queue = async (appId: string) => {
      const video = newVideo({ appId });
      await insertVideoIn(contexts[0]!.stores, video, VideoStatus.WaitingForTranscoding);
      await enqueueJob(contexts[0]!, video.id, 'transcode');
    };
    const workers = contexts.map(
      (context, index) => new ProcessingWorker(context, { runners: { download: busy(index), transcode: busy(index) } }),
    );
    try {
      for (let n = 0; n < 100; n++) await queue('app-a');
      for (const worker of workers) worker.start();
      await until(async () => (started.length === 2 ? true : undefined), "app-a's jobs on both workers");
      await queue('app-b');
      await until(async () => (started.some((run) => run.appId === 'app-b') ? true : undefined), "app-b's first job");
      // Each worker ran one of app-a's jobs (its share of 2 slots) and kept the other for app-b.
      expect(
        started
          .filter((run) => run.appId === 'app-a')
          .map((run) => run.worker)
          .sort(),
      ).toEqual([0, 1]);
      expect(started).toHaveLength(3);
    } finally {
      for (const worker of workers) await worker.stop();
      for (const context of contexts) await context.stores.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a worker with the default pools (2 downloads, 2 transcodes, each app 1 of each)', () => {
  it("keeps one app to its share of the download pool, so another app's download starts beside it, and transcodes run apart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    const context = await contextOn(dataDir);
    const names = new Map<string, string>();
    const started: string[] = [];
    // Works until the worker stops it, as a slow download or a long transcode would.
    const busy: JobRunner = async (_service, video, signal) => {
      started.push(names.get(video.id)!);
      await new Promise((_done, fail) => signal.addEventListener('abort', () => fail(signal.reason)));
    };
    const queue = async (name: string, appId: string, kind: 'download' | 'transcode') => {
      const video = newVideo({ appId });
      await insertVideoIn(context.stores, video, kind === 'download' ? VideoStatus.WaitingForDownload : VideoStatus.WaitingForTranscoding);
      names.set(video.id, name);
      await enqueueJob(context, video.id, kind);
    };
    const worker = new ProcessingWorker(context, { runners: { download: busy, transcode: busy } });
    try {
      for (const name of ['a1', 'a2', 'a3']) await queue(name, 'app-a', 'download');
      worker.start();
      await until(async () => (started.length > 0 ? true : undefined), "app-a's first download");
      await queue('b1', 'app-b', 'download');
      await until(async () => (started.includes('b1') ? true : undefined), "app-b's download");
      // app-a's second download never took the pool's other slot: app-b's, queued later, got it.
      expect(started).toEqual(['a1', 'b1']);
      await queue('a-transcode', 'app-a', 'transcode');
      await until(async () => (started.includes('a-transcode') ? true : undefined), "app-a's transcode, beside two downloads");
      expect(started).toEqual(['a1', 'b1', 'a-transcode']);
    } finally {
      await worker.stop();
      await context.stores.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

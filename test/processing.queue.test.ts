import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRegistry } from '../src/server/auth/apps';
import { readConfig } from '../src/server/config';
import type { ServiceContext } from '../src/server/context';
import { silentLogger } from '../src/server/log';
import { mediaDir } from '../src/server/media/paths';
import { enqueueJob, markProcessed, markSourceStored } from '../src/server/processing/pipeline';
import { MAX_JOB_ATTEMPTS, ProcessingWorker, type JobRunner } from '../src/server/processing/queue';
import { ServiceSignals } from '../src/server/signals';
import { openDatabase, type Db } from '../src/server/storage/db';
import { VideoStatus, VideoStore } from '../src/server/storage/videos';
import { makeTestVideo } from './support/media';
import { startTestService, TEST_APPS, type TestService } from './support/service';
import { newVideo } from './support/videos';

let work: string;
let clip: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-queue-'));
  clip = await makeTestVideo(work, 'clip.mp4', { width: 1280, height: 720, seconds: 4 });
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A service context on its own database connection, as a second process would have. */
function contextOn(dataDir: string): ServiceContext {
  const db = openDatabase(dataDir);
  return {
    config: readConfig({ DATA_DIR: dataDir }),
    db,
    apps: createAppRegistry(TEST_APPS),
    videos: new VideoStore(db),
    log: silentLogger,
    signals: new ServiceSignals(),
    now: Date.now,
  };
}

function insertVideo(service: ServiceContext, status: VideoStatus, sourceFile = ''): string {
  const video = newVideo({ status });
  const id = video.id;
  service.videos.insert(video);
  if (sourceFile) service.db.prepare('UPDATE videos SET source_file = ? WHERE id = ?').run(sourceFile, id);
  return id;
}

function placeSource(dataDir: string, videoId: string): void {
  mkdirSync(mediaDir(dataDir, videoId), { recursive: true });
  copyFileSync(clip, join(mediaDir(dataDir, videoId), 'source.mp4'));
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 10));
  }
}

const statusOf = (db: Db, id: string) => (db.prepare('SELECT status FROM videos WHERE id = ?').get(id) as { status: number }).status;
const jobOf = (db: Db, id: string) =>
  db.prepare('SELECT state, attempts, last_error FROM jobs WHERE video_id = ?').get(id) as { state: string; attempts: number; last_error: string };

/** What a crash mid-transcode leaves in `dataDir`: a video in `status` and its job still 'running', no worker. */
function crashLeftRunningJob(dataDir: string, status: VideoStatus, attempts = 1): string {
  const crashed = contextOn(dataDir);
  const videoId = insertVideo(crashed, status, 'source.mp4');
  crashed.db
    .prepare(`INSERT INTO jobs (video_id, kind, state, attempts, created_at, updated_at) VALUES (?, 'transcode', 'running', ?, 0, 0)`)
    .run(videoId, attempts);
  crashed.db.close();
  return videoId;
}

describe('jobs survive a stop', () => {
  it('a job still marked running after a crash is resumed at the next start and completes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    const videoId = crashLeftRunningJob(dataDir, VideoStatus.Transcoding);
    placeSource(dataDir, videoId);

    const service = await startTestService({ dataDir });
    try {
      // The job is marked done just after the video reaches 1, so wait for the job.
      await until(() => (jobOf(service.context.db, videoId).state === 'done' ? true : undefined), 'job done');
      expect(jobOf(service.context.db, videoId)).toMatchObject({ state: 'done', attempts: 2 });
      expect(statusOf(service.context.db, videoId)).toBe(1);
    } finally {
      await service.stop(true);
    }
  });

  it('a job that finished its step just before a crash is recorded done, not run again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    // The video reached 1 (its callback queued) but the crash came before the job was marked done.
    const videoId = crashLeftRunningJob(dataDir, VideoStatus.Normal);

    const service = await startTestService({ dataDir });
    try {
      expect(jobOf(service.context.db, videoId)).toMatchObject({ state: 'done', attempts: 1 });
      expect(statusOf(service.context.db, videoId)).toBe(1);
    } finally {
      await service.stop(true);
    }
  });

  it('stopping the service aborts a running transcode and re-queues it; the next start finishes it', async () => {
    const first: TestService = await startTestService();
    const videoId = insertVideo(first.context, VideoStatus.NotUploaded);
    placeSource(first.dataDir, videoId);
    markSourceStored(first.context, videoId, 'source.mp4');
    await until(() => (statusOf(first.context.db, videoId) === VideoStatus.Transcoding ? true : undefined), 'status 6');
    const db = openDatabase(first.dataDir);
    await first.stop();
    // Back to waiting, nothing half-written published.
    expect(statusOf(db, videoId)).toBe(VideoStatus.WaitingForTranscoding);
    expect(jobOf(db, videoId).state).toBe('queued');
    expect(db.prepare('SELECT COUNT(*) AS n FROM play_files WHERE video_id = ?').get(videoId)).toEqual({ n: 0 });
    db.close();

    const second = await startTestService({ dataDir: first.dataDir });
    try {
      await until(() => (statusOf(second.context.db, videoId) === 1 ? true : undefined), 'status 1');
      expect(second.context.videos.playFiles(videoId).map((play) => play.label)).toEqual(['720P', '480P', '360P']);
    } finally {
      await second.stop(true);
    }
  });

  it(`a job cut off ${MAX_JOB_ATTEMPTS} times fails with its reason instead of looping`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    const videoId = crashLeftRunningJob(dataDir, VideoStatus.Transcoding, MAX_JOB_ATTEMPTS);

    const service = await startTestService({ dataDir });
    try {
      const query = new URLSearchParams({ ...service.auth(), Id: videoId });
      const reply = await (await fetch(`${service.address}/Api/Video/Get?${query}`)).json();
      expect(reply.Video.Status).toBe(7);
      expect(service.context.videos.get(videoId)!.status_reason).toBe(`interrupted ${MAX_JOB_ATTEMPTS} times; given up`);
      expect(jobOf(service.context.db, videoId).state).toBe('failed');
    } finally {
      await service.stop(true);
    }
  });
});

describe('two workers on one database (as two processes would be)', () => {
  it('run every job exactly once, each never more than its concurrency at a time', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-test-'));
    const contexts = [contextOn(dataDir), contextOn(dataDir)];
    const runs = new Map<string, number>();
    const inFlight = [0, 0];
    const peak = [0, 0];
    const runner = (worker: number): JobRunner => async (service, video) => {
      runs.set(video.id, (runs.get(video.id) ?? 0) + 1);
      peak[worker] = Math.max(peak[worker]!, ++inFlight[worker]!);
      await new Promise((wake) => setTimeout(wake, 15));
      inFlight[worker]!--;
      markProcessed(service, video.id, [VideoStatus.Transcoding], VideoStatus.Normal);
    };
    const ids = Array.from({ length: 16 }, () => insertVideo(contexts[0]!, VideoStatus.WaitingForTranscoding));
    for (const id of ids) enqueueJob(contexts[0]!, id, 'transcode');

    const workers = contexts.map(
      (context, index) => new ProcessingWorker(context, { concurrency: 2, runners: { download: runner(index), transcode: runner(index) } }),
    );
    for (const worker of workers) worker.start();
    try {
      await until(() => (ids.every((id) => statusOf(contexts[0]!.db, id) === 1) ? true : undefined), 'every video in status 1');
    } finally {
      for (const worker of workers) await worker.stop();
    }
    expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
    expect(Math.max(...peak)).toBeLessThanOrEqual(2);
    expect(ids.map((id) => jobOf(contexts[0]!.db, id))).toEqual(ids.map(() => ({ state: 'done', attempts: 1, last_error: '' })));
    for (const context of contexts) context.db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
});

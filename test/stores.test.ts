import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from './support/postgres';
import { insertVideoIn, newVideo } from './support/videos';
import { openDatabase } from '../src/server/storage/db';
import type { ClaimScope, JobKind } from '../src/server/storage/jobs';
import { openStores, RootStoresInTransactionError, type ServiceStores } from '../src/server/storage/stores';
import { VideoTransitionError, type NewVideo } from '../src/server/storage/videos';
import { VideoStatus } from '../src/shared/videoStatus';
import { isVideoTransition, VIDEO_TRANSITIONS } from '../src/shared/videoTransitions';

// The same behaviour on both databases: SQLite in a temporary DATA_DIR, and PostgreSQL in a
// throwaway cluster (a fresh database per test).
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

let dir: string;
let stores: ServiceStores;
afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

function video(n: number, overrides: Partial<NewVideo> = {}): NewVideo {
  return newVideo({ id: `video-${n}`, title: `title ${n}`, createdAt: 1_700_000_000_000 + n * 1000, ...overrides });
}

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

describe.each(['sqlite', 'postgres'] as const)('stores on %s', (dialect) => {
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ovu-stores-'));
    stores = await openStores({ dataDir: dir, databaseUrl: dialect === 'postgres' ? await postgres.newDatabase() : undefined });
  });

  describe('VideoStore.listByUser', () => {
    beforeEach(async () => {
      for (let n = 1; n <= 25; n++) await stores.videos.insert(video(n));
      await stores.videos.insert(video(100, { createUser: 'bob' }));
      await stores.videos.insert(video(101, { appId: 'app-b' }));
    });

    it('pages newest first with a 1-based index, and counts every match in total', async () => {
      const first = await stores.videos.listByUser('app-a', 'alice', 1, 10);
      expect(first.total).toBe(25);
      expect(ids(first.videos)).toEqual(Array.from({ length: 10 }, (_, i) => `video-${25 - i}`));
      expect(ids((await stores.videos.listByUser('app-a', 'alice', 2, 10)).videos)).toEqual(
        Array.from({ length: 10 }, (_, i) => `video-${15 - i}`),
      );
      const last = await stores.videos.listByUser('app-a', 'alice', 3, 10);
      expect(ids(last.videos)).toEqual(['video-5', 'video-4', 'video-3', 'video-2', 'video-1']);
      expect(last.total).toBe(25);
    });

    it('gives an empty page past the end but still the total', async () => {
      expect(await stores.videos.listByUser('app-a', 'alice', 4, 10)).toEqual({ total: 25, videos: [] });
    });

    it('pages of other sizes tile the list without gaps or repeats', async () => {
      const seen: string[] = [];
      for (const page of [1, 2, 3, 4, 5, 6, 7]) seen.push(...ids((await stores.videos.listByUser('app-a', 'alice', page, 4)).videos));
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `video-${25 - i}`));
    });

    it('keeps apps and users apart', async () => {
      expect(ids((await stores.videos.listByUser('app-a', 'bob', 1, 10)).videos)).toEqual(['video-100']);
      expect(ids((await stores.videos.listByUser('app-b', 'alice', 1, 10)).videos)).toEqual(['video-101']);
      expect((await stores.videos.listByUser('app-b', 'bob', 1, 10)).total).toBe(0);
    });

    it('orders videos registered in the same millisecond by registration', async () => {
      await stores.videos.insert(video(200, { createUser: 'carol', createdAt: 5 }));
      await stores.videos.insert(video(201, { createUser: 'carol', createdAt: 5 }));
      expect(ids((await stores.videos.listByUser('app-a', 'carol', 1, 10)).videos)).toEqual(['video-201', 'video-200']);
    });

    it('keeps registration order among equal times on pages read from either end', async () => {
      for (let n = 300; n < 307; n++) await stores.videos.insert(video(n, { createUser: 'dave', createdAt: 5 }));
      const seen: string[] = [];
      for (const page of [1, 2, 3, 4]) seen.push(...ids((await stores.videos.listByUser('app-a', 'dave', page, 2)).videos));
      expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `video-${306 - i}`));
    });

    it('matches the user name exactly (case and spaces count)', async () => {
      expect((await stores.videos.listByUser('app-a', 'Alice', 1, 10)).total).toBe(0);
    });
  });

  describe('VideoStore', () => {
    it('reads back what was inserted', async () => {
      await stores.videos.insert(video(1, { title: '视频 😀', tags: '猫,狗' }));
      expect(await stores.videos.get('video-1')).toMatchObject({
        id: 'video-1',
        appId: 'app-a',
        title: '视频 😀',
        tags: '猫,狗',
        status: 8,
        duration: 0,
        createdAt: 1_700_000_001_000,
      });
      expect(await stores.videos.get('nope')).toBeUndefined();
    });

    it('refuses a second video with the same id, and counts it once', async () => {
      await stores.videos.insert(video(1));
      await expect(stores.videos.insert(video(1))).rejects.toThrow();
      expect((await stores.videos.listByUser('app-a', 'alice', 1, 10)).total).toBe(1);
    });

    it('moves a status only from the expected one', async () => {
      await stores.videos.insert(video(1));
      expect(await stores.videos.transition('video-1', [VideoStatus.Downloading], VideoStatus.WaitingForTranscoding, '', 1)).toBe(false);
      expect(await stores.videos.transition('video-1', [VideoStatus.NotUploaded], VideoStatus.WaitingForTranscoding, '', 1)).toBe(true);
      expect((await stores.videos.get('video-1'))!.status).toBe(VideoStatus.WaitingForTranscoding);
    });

    it('walks the transition table: each of its rows moves a video, any other change throws and writes nothing', async () => {
      let n = 0;
      for (const row of VIDEO_TRANSITIONS) {
        const id = `video-${++n}`;
        if (row.from === null) {
          await stores.videos.insert(video(n, { status: row.to }));
        } else {
          await insertVideoIn(stores, video(n), row.from);
          expect(await stores.videos.transition(id, [row.from], row.to, 'why', 2), `${row.from} → ${row.to}`).toBe(true);
        }
        expect((await stores.videos.get(id))!.status).toBe(row.to);
      }
      for (const from of Object.values(VideoStatus).filter((status) => status !== VideoStatus.WaitingForDeletion)) {
        const id = `video-${++n}`;
        await insertVideoIn(stores, video(n), from);
        for (const to of Object.values(VideoStatus).filter((status) => !isVideoTransition(from, status))) {
          const illegal = stores.videos.transition(id, [from], to, 'why', 2);
          await expect(illegal, `${from} → ${to}`).rejects.toThrow(VideoTransitionError);
          await expect(illegal).rejects.toMatchObject({ code: 'ILLEGAL_VIDEO_TRANSITION', from, to });
        }
        expect((await stores.videos.get(id))!.status).toBe(from);
      }
      // One bad status among several a step accepts refuses the whole step, whatever the video's now.
      await expect(
        stores.videos.transition('video-1', [VideoStatus.NotUploaded, VideoStatus.Normal], VideoStatus.WaitingForTranscoding, '', 3),
      ).rejects.toThrow(VideoTransitionError);
      await expect(stores.videos.insert(video(++n, { status: VideoStatus.Normal }))).rejects.toThrow(VideoTransitionError);
      expect(await stores.videos.get(`video-${n}`)).toBeUndefined();
    });

    it('lists play files highest bitrate first, with whether HLS can address each, and a replacement drops the old ones', async () => {
      await stores.videos.insert(video(1));
      await stores.playFiles.replace('video-1', [
        { file: '360p.mp4', bitrate: 800, label: '360p', height: 360, segmented: true },
        { file: 'original.mp4', bitrate: 2500, label: 'Original', height: 720, segmented: false },
      ]);
      expect((await stores.playFiles.forVideo('video-1')).map((file) => [file.label, file.segmented])).toEqual([
        ['Original', false],
        ['360p', true],
      ]);
      await stores.playFiles.replace('video-1', [{ file: '480p.mp4', bitrate: 1200, label: '480p', height: 480, segmented: true }]);
      expect((await stores.playFiles.forVideo('video-1')).map((file) => file.file)).toEqual(['480p.mp4']);
    });
  });

  describe('transactions', () => {
    it('land all of their writes or none', async () => {
      await insertVideoIn(stores, video(1), VideoStatus.Transcoding);
      const failing = stores.transaction(async (tx) => {
        await tx.videos.transition('video-1', [VideoStatus.Transcoding], VideoStatus.Normal, '', 2);
        await tx.callbacks.enqueue('video-1', 'app-a', VideoStatus.Normal, 2);
        throw new Error('a later write failed');
      });
      await expect(failing).rejects.toThrow('a later write failed');
      expect((await stores.videos.get('video-1'))!.status).toBe(VideoStatus.Transcoding);
      expect(await stores.callbacks.due(10, 10)).toEqual([]);
    });

    it('announce what they wrote only once it is committed, and never when they roll back', async () => {
      const heard: string[] = [];
      await stores.transaction(async (tx) => {
        await tx.videos.insert(video(1));
        tx.afterCommit(() => heard.push('committed'));
        await tx.transaction(async (inner) => inner.afterCommit(() => heard.push('joined')));
        expect(heard).toEqual([]);
      });
      expect(heard).toEqual(['committed', 'joined']);
      await expect(
        stores.transaction(async (tx) => {
          tx.afterCommit(() => heard.push('rolled back'));
          throw new Error('undone');
        }),
      ).rejects.toThrow('undone');
      stores.afterCommit(() => heard.push('outside'));
      expect(heard).toEqual(['committed', 'joined', 'outside']);
    });

    it('refuse, under the tests, a call on the root stores from inside one of their transactions, naming it', async () => {
      await stores.videos.insert(video(1));
      // Unguarded, this call waits for the transaction that waits for it (SQLite): the test would time out.
      const misuse = stores.transaction(async (tx) => {
        await tx.videos.get('video-1');
        return stores.videos.get('video-1');
      });
      await expect(misuse).rejects.toThrow(RootStoresInTransactionError);
      await expect(stores.transaction(async () => stores.jobs.claim(1, 2))).rejects.toThrow(
        /stores\.jobs\.claim was called inside an open transaction/,
      );
      await expect(stores.transaction(async () => stores.transaction(async () => 1))).rejects.toThrow(/stores\.transaction/);
      await expect(stores.transaction(async () => stores.afterCommit(() => undefined))).rejects.toThrow(/stores\.afterCommit/);

      // Beside a transaction (another request's work), and after one, the root stores answer.
      let release!: () => void;
      const held = stores.transaction(async (tx) => {
        await tx.videos.transition('video-1', [VideoStatus.NotUploaded], VideoStatus.WaitingForTranscoding, '', 2);
        await new Promise<void>((resolve) => (release = resolve));
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const beside = stores.videos.get('video-1');
      release();
      await held;
      expect((await beside)!.id).toBe('video-1');
      expect((await stores.videos.get('video-1'))!.status).toBe(VideoStatus.WaitingForTranscoding);
    });
  });

  describe('SettingStore', () => {
    it('keeps the first value offered: of offers made at once, every caller gets the same one back', async () => {
      const settled = await Promise.all(['k1', 'k2', 'k3', 'k4'].map((offer, n) => stores.settings.settle('ticket_key', offer, n)));
      expect(new Set(settled).size).toBe(1);
      expect(['k1', 'k2', 'k3', 'k4']).toContain(settled[0]);
      expect(await stores.settings.settle('ticket_key', 'later', 9)).toBe(settled[0]);
      expect(await stores.settings.settle('demo_app', 'other', 9)).toBe('other');
    });
  });

  describe('JobStore', () => {
    it('queues one active job per video and kind, and hands each queued job to one claim only', async () => {
      for (let n = 1; n <= 6; n++) {
        await stores.videos.insert(video(n));
        await stores.jobs.enqueue({ videoId: `video-${n}`, appId: 'app-a', kind: 'transcode' }, 10);
        await stores.jobs.enqueue({ videoId: `video-${n}`, appId: 'app-a', kind: 'transcode' }, 11);
      }
      const claims = await Promise.all(Array.from({ length: 10 }, () => stores.jobs.claim(20, 1_000)));
      const claimed = claims.filter((job) => job !== undefined);
      expect(claimed.map((job) => job.videoId).sort()).toEqual(['video-1', 'video-2', 'video-3', 'video-4', 'video-5', 'video-6']);
      expect(claimed.every((job) => job.state === 'running' && job.attempts === 1 && job.leaseUntil === 1_000)).toBe(true);
      expect((await stores.jobs.expired(1_001)).length).toBe(6);
      expect(await stores.jobs.requeue(claimed[0]!, 30)).toBe(true);
      const again = (await stores.jobs.claim(40, 2_000))!;
      expect(again).toMatchObject({ id: claimed[0]!.id, attempts: 2 });
      // The first claim no longer holds the job: its writes land nowhere.
      expect(await stores.jobs.finish(claimed[0]!, 'done', '', 50)).toBe(false);
      expect(await stores.jobs.renew(claimed[0]!, 3_000, 50)).toBe(false);
      expect(await stores.jobs.renew(again, 3_000, 50)).toBe(true);
    });

    it('lets a job whose lease ran out be taken back, but not one its holder renewed meanwhile', async () => {
      await stores.videos.insert(video(1));
      await stores.jobs.enqueue({ videoId: 'video-1', appId: 'app-a', kind: 'download' }, 10);
      const held = (await stores.jobs.claim(10, 100))!;
      const [seen] = await stores.jobs.expired(150);
      expect(seen).toMatchObject({ id: held.id, leaseUntil: 100 });
      // The holder was only slow: it renews before the taker writes.
      expect(await stores.jobs.renew(held, 300, 140)).toBe(true);
      expect(await stores.jobs.requeue(seen!, 150, { expiredBefore: 150 })).toBe(false);
      expect(await stores.jobs.expired(150)).toEqual([]);
      // Now it has died: past its renewed lease the job goes back to the queue, once.
      const [dead] = await stores.jobs.expired(400);
      const takers = await Promise.all([0, 1].map(() => stores.jobs.requeue(dead!, 400, { expiredBefore: 400 })));
      expect(takers.sort()).toEqual([false, true]);
    });
  });

  describe('JobStore: fair claims', () => {
    /** Queues a job of `kind` for each of `names` (`<app>:<n>`, e.g. `b:2` is app-b's video b-2), in that order. */
    async function queue(kind: JobKind, ...names: string[]) {
      for (const name of names) {
        const [app, n] = name.split(':');
        const id = `${app}-${n}-${kind}`;
        await stores.videos.insert(newVideo({ id, appId: `app-${app}` }));
        await stores.jobs.enqueue({ videoId: id, appId: `app-${app}`, kind }, 1);
      }
    }
    /** The short name of the job a claim at `now` takes (`a:1`), or undefined. */
    async function claimAt(now: number, scope: ClaimScope = { kind: 'transcode' }) {
      const job = await stores.jobs.claim(now, now + 60_000, scope);
      return job && { job, name: `${job.appId.slice(4)}:${job.videoId.split('-')[1]}` };
    }

    it("makes apps take turns: one app's long queue waits behind every other app's next job", async () => {
      await queue('transcode', 'a:1', 'a:2', 'a:3', 'a:4', 'b:1', 'b:2', 'c:1');
      // One slot: each job is finished before the next claim, so no app has a job running.
      const order: string[] = [];
      for (let now = 10; ; now++) {
        const claimed = await claimAt(now);
        if (!claimed) break;
        order.push(claimed.name);
        expect(await stores.jobs.finish(claimed.job, 'done', '', now)).toBe(true);
      }
      expect(order).toEqual(['a:1', 'b:1', 'c:1', 'a:2', 'b:2', 'a:3', 'a:4']);
    });

    it('serves the app with the fewest jobs running first, even when its last claim is the newest', async () => {
      await queue('transcode', 'a:1', 'a:2', 'a:3', 'b:1', 'b:2');
      expect((await claimAt(10))!.name).toBe('a:1');
      expect((await claimAt(11, { kind: 'transcode', exceptApps: ['app-b'] }))!.name).toBe('a:2');
      const b1 = (await claimAt(12))!;
      expect(b1.name).toBe('b:1');
      await stores.jobs.finish(b1.job, 'done', '', 13);
      // app-a: 2 running, last claim 11; app-b: none running, last claim 12 → app-b.
      expect((await claimAt(14))!.name).toBe('b:2');
      expect((await claimAt(15))!.name).toBe('a:3');
    });

    it('passes over the apps it is told hold their share, and the jobs of the other pool', async () => {
      await queue('transcode', 'a:1', 'a:2');
      await queue('download', 'b:1');
      expect(await claimAt(10, { kind: 'transcode', exceptApps: ['app-a'] })).toBeUndefined();
      expect((await claimAt(11, { kind: 'download', exceptApps: ['app-a'] }))!.name).toBe('b:1');
      expect(await claimAt(12, { kind: 'download' })).toBeUndefined();
      expect((await claimAt(13, { kind: 'transcode', exceptApps: ['app-b', 'app-c'] }))!.name).toBe('a:1');
    });

    it('hands each job to one claim only when several claim at once across apps', async () => {
      await queue('download', 'a:1', 'a:2', 'a:3', 'b:1', 'b:2', 'c:1');
      const claims = await Promise.all(Array.from({ length: 10 }, () => stores.jobs.claim(20, 1_000, { kind: 'download' })));
      const ids = claims.filter((job) => job !== undefined).map((job) => job.videoId);
      expect(ids.sort()).toEqual(['a-1-download', 'a-2-download', 'a-3-download', 'b-1-download', 'b-2-download', 'c-1-download']);
    });
  });

  describe('CallbackStore', () => {
    it('lets exactly one of two claims at once take a due callback, until its claim runs out', async () => {
      await stores.videos.insert(video(1));
      await stores.callbacks.enqueue('video-1', 'app-a', 1, 100);
      const [row] = await stores.callbacks.due(100, 10);
      expect(row).toMatchObject({ videoId: 'video-1', appId: 'app-a', videoStatus: 1, attempts: 0 });
      const claims = await Promise.all([stores.callbacks.claim(row!.id, 100, 5000), stores.callbacks.claim(row!.id, 100, 5000)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await stores.callbacks.due(4999, 10)).toEqual([]);
      expect(await stores.callbacks.nextAttemptAt()).toBe(5000);
      await stores.callbacks.delivered(row!.id, 200);
      expect(await stores.callbacks.nextAttemptAt()).toBeUndefined();
    });
  });
});

describe('PostgreSQL migrations', () => {
  it('are applied once when several instances start on one new database at once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ovu-stores-'));
    const databaseUrl = await postgres.newDatabase();
    const instances = await Promise.all([1, 2, 3].map(() => openStores({ dataDir: dir, databaseUrl })));
    stores = instances[0]!;
    await instances[1]!.videos.insert(video(1));
    expect((await instances[2]!.videos.listByUser('app-a', 'alice', 1, 10)).total).toBe(1);
    for (const other of instances.slice(1)) await other.close();
  });

  it('refuse a database that names nothing it can reach, in one line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ovu-stores-'));
    stores = await openStores({ dataDir: dir, databaseUrl: undefined });
    const unused = (await postgres.newDatabase()).replace(/:\d+\//, ':1/');
    await expect(openStores({ dataDir: dir, databaseUrl: unused })).rejects.toThrow(/^DATABASE_URL cannot be reached \(ECONNREFUSED\)$/);
  });
});

describe('upgrading a SQLite database of schema version 1', () => {
  it('counts the videos it already holds in each list, and takes its rungs for unsegmented (faststart MP4s, before HLS)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ovu-stores-'));
    await (await openStores({ dataDir: dir, databaseUrl: undefined })).close();
    // What version 1 left: its index, no counts, its version in user_version only, and videos of two users.
    const db = openDatabase(dir);
    db.exec(`DROP TABLE video_counts; DROP TABLE settings; DROP TABLE quota_buckets; DROP TABLE retired_play_files; ALTER TABLE videos DROP COLUMN rendition_bytes; ALTER TABLE videos DROP COLUMN downloaded_bytes; DROP INDEX jobs_by_app; DROP INDEX jobs_app_turns; ALTER TABLE jobs DROP COLUMN app_id; ALTER TABLE jobs DROP COLUMN claimed_at; ALTER TABLE jobs DROP COLUMN lease_until; ALTER TABLE play_files DROP COLUMN segmented; ALTER TABLE uploads DROP COLUMN active_at; DROP TABLE kysely_migration; DROP TABLE kysely_migration_lock; DROP INDEX videos_by_user;
      CREATE INDEX videos_by_user ON videos (app_id, create_user, created_at DESC); PRAGMA user_version = 1`);
    const add = db.prepare(
      `INSERT INTO videos (id, app_id, title, create_user, source_get_type, status, created_at, updated_at) VALUES (?, 'app-a', 't', ?, 1, 8, ?, 0)`,
    );
    for (let n = 1; n <= 12; n++) add.run(`video-${n}`, n % 3 === 0 ? 'bob' : 'alice', n);
    db.exec(`INSERT INTO play_files (video_id, file, bitrate, label, height) VALUES ('video-1', '360p.mp4', 800, '360P', 360)`);
    db.close();
    stores = await openStores({ dataDir: dir, databaseUrl: undefined });
    const alice = await stores.videos.listByUser('app-a', 'alice', 2, 5);
    expect(alice).toMatchObject({ total: 8 });
    expect(ids(alice.videos)).toEqual(['video-4', 'video-2', 'video-1']);
    expect((await stores.videos.listByUser('app-a', 'bob', 1, 10)).total).toBe(4);
    await stores.videos.insert(video(13, { createUser: 'bob' }));
    expect((await stores.videos.listByUser('app-a', 'bob', 1, 10)).total).toBe(5);
    expect(await stores.playFiles.forVideo('video-1')).toEqual([
      { file: '360p.mp4', bitrate: 800, label: '360P', height: 360, segmented: false },
    ]);
  });
});

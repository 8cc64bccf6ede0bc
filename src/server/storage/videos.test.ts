import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db';
import { VideoStatus, VideoStore, type NewVideo } from './videos';
import { newVideo } from '../../../test/support/videos';

let dir: string;
let db: Db;
let store: VideoStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovu-videos-'));
  db = openDatabase(dir);
  store = new VideoStore(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function video(n: number, overrides: Partial<NewVideo> = {}): NewVideo {
  return newVideo({ id: `video-${n}`, title: `title ${n}`, createdAt: 1_700_000_000_000 + n * 1000, ...overrides });
}

describe('VideoStore.listByUser', () => {
  beforeEach(() => {
    for (let n = 1; n <= 25; n++) store.insert(video(n));
    store.insert(video(100, { createUser: 'bob' }));
    store.insert(video(101, { appId: 'app-b' }));
  });

  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

  it('pages newest first with a 1-based index, and counts every match in total', () => {
    const first = store.listByUser('app-a', 'alice', 1, 10);
    expect(first.total).toBe(25);
    expect(ids(first.rows)).toEqual(Array.from({ length: 10 }, (_, i) => `video-${25 - i}`));
    expect(ids(store.listByUser('app-a', 'alice', 2, 10).rows)).toEqual(Array.from({ length: 10 }, (_, i) => `video-${15 - i}`));
    const last = store.listByUser('app-a', 'alice', 3, 10);
    expect(ids(last.rows)).toEqual(['video-5', 'video-4', 'video-3', 'video-2', 'video-1']);
    expect(last.total).toBe(25);
  });

  it('gives an empty page past the end but still the total', () => {
    expect(store.listByUser('app-a', 'alice', 4, 10)).toEqual({ total: 25, rows: [] });
  });

  it('pages of other sizes tile the list without gaps or repeats', () => {
    const seen = [1, 2, 3, 4, 5, 6, 7].flatMap((page) => ids(store.listByUser('app-a', 'alice', page, 4).rows));
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `video-${25 - i}`));
  });

  it('keeps apps and users apart', () => {
    expect(ids(store.listByUser('app-a', 'bob', 1, 10).rows)).toEqual(['video-100']);
    expect(ids(store.listByUser('app-b', 'alice', 1, 10).rows)).toEqual(['video-101']);
    expect(store.listByUser('app-b', 'bob', 1, 10).total).toBe(0);
  });

  it('orders videos registered in the same millisecond by registration', () => {
    store.insert(video(200, { createUser: 'carol', createdAt: 5 }));
    store.insert(video(201, { createUser: 'carol', createdAt: 5 }));
    expect(ids(store.listByUser('app-a', 'carol', 1, 10).rows)).toEqual(['video-201', 'video-200']);
  });

  it('matches the user name exactly (case and spaces count)', () => {
    expect(store.listByUser('app-a', 'Alice', 1, 10).total).toBe(0);
  });
});

describe('VideoStore', () => {
  it('reads back what was inserted', () => {
    store.insert(video(1, { title: '视频 😀', tags: '猫,狗' }));
    expect(store.get('video-1')).toMatchObject({ id: 'video-1', app_id: 'app-a', title: '视频 😀', tags: '猫,狗', status: 8, duration: 0 });
    expect(store.get('nope')).toBeUndefined();
  });

  it('refuses a second video with the same id', () => {
    store.insert(video(1));
    expect(() => store.insert(video(1))).toThrow();
  });

  it('moves a status only from the expected one', () => {
    store.insert(video(1));
    expect(store.transition('video-1', [VideoStatus.Downloading], VideoStatus.WaitingForTranscoding)).toBe(false);
    expect(store.transition('video-1', [VideoStatus.NotUploaded], VideoStatus.WaitingForTranscoding)).toBe(true);
    expect(store.get('video-1')!.status).toBe(VideoStatus.WaitingForTranscoding);
  });

  it('lists play files highest bitrate first', () => {
    store.insert(video(1));
    const add = db.prepare('INSERT INTO play_files (video_id, file, bitrate, label, height) VALUES (?, ?, ?, ?, ?)');
    add.run('video-1', '360p.mp4', 800, '360p', 360);
    add.run('video-1', '720p.mp4', 2500, '720p', 720);
    expect(store.playFiles('video-1').map((file) => file.label)).toEqual(['720p', '360p']);
  });
});

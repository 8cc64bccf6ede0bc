import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPostgres, type TestPostgres } from './support/postgres';
import { AdvisoryLocker } from '../src/server/storage/advisoryLocker';

// Two lockers on their own sessions, as two service instances on one database have them.
let postgres: TestPostgres;
let lockers: AdvisoryLocker[] = [];
let url: string;
beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.newDatabase();
  lockers = [new AdvisoryLocker(url, 2_000), new AdvisoryLocker(url, 2_000)];
}, 60_000);
afterAll(async () => {
  for (const locker of lockers) await locker.close();
  await postgres?.stop();
});

const UPLOAD = 'a'.repeat(32);

describe('AdvisoryLocker', () => {
  it('makes a second instance wait for an upload, asks the holder to let go, and never lets the two interleave', async () => {
    const [one, two] = lockers as [AdvisoryLocker, AdvisoryLocker];
    const written: string[] = [];
    const asked: string[] = [];
    const holder = one.newLock(UPLOAD);
    await holder.lock(new AbortController().signal, () => void asked.push('one'));
    const first = (async () => {
      // A PATCH writing its body: it finishes its chunk, then lets go.
      for (let n = 0; n < 5; n++) {
        written.push('one');
        await sleep(40);
      }
      await holder.unlock();
    })();
    await sleep(50);
    const waiter = two.newLock(UPLOAD);
    await waiter.lock(new AbortController().signal, () => void asked.push('two'));
    for (let n = 0; n < 5; n++) written.push('two');
    await waiter.unlock();
    await first;
    expect(written).toEqual([...Array(5).fill('one'), ...Array(5).fill('two')]);
    // The holder heard the release request from the other instance; nobody asked the second.
    expect(asked[0]).toBe('one');
    expect(asked.every((who) => who === 'one')).toBe(true);
  });

  it('gives up with tus’s lock timeout when the holder never lets go, then serves the next request once it does', async () => {
    const [one, two] = lockers as [AdvisoryLocker, AdvisoryLocker];
    const holder = one.newLock(UPLOAD);
    await holder.lock(new AbortController().signal, () => {});
    const started = Date.now();
    await expect(two.newLock(UPLOAD).lock(new AbortController().signal, () => {})).rejects.toMatchObject({
      body: 'failed to acquire lock before timeout',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    await holder.unlock();
    const next = two.newLock(UPLOAD);
    await next.lock(new AbortController().signal, () => {});
    await next.unlock();
  });

  it('asks the holders to let go when its session is lost (their locks went with it), and locks again after', async () => {
    const [one, two] = lockers as [AdvisoryLocker, AdvisoryLocker];
    const asked: string[] = [];
    const holder = one.newLock(UPLOAD);
    await holder.lock(new AbortController().signal, () => void asked.push('holder'));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Both lockers' sessions show under one name; end the one holding the lock.
      await admin.query(
        `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory' AND a.application_name = 'ovu tus locks'`,
      );
    } finally {
      await admin.end();
    }
    await vi.waitFor(() => expect(asked).toEqual(['holder']));
    // Another instance may take the upload now; the first locker reconnects for its next lock.
    const taker = two.newLock(UPLOAD);
    await taker.lock(new AbortController().signal, () => {});
    await taker.unlock();
    await holder.unlock();
    const again = one.newLock(UPLOAD);
    await again.lock(new AbortController().signal, () => {});
    await again.unlock();
  });

  it('lets different uploads be held at once', async () => {
    const [one, two] = lockers as [AdvisoryLocker, AdvisoryLocker];
    const a = one.newLock('b'.repeat(32));
    const b = two.newLock('c'.repeat(32));
    await Promise.all([a.lock(new AbortController().signal, () => {}), b.lock(new AbortController().signal, () => {})]);
    await Promise.all([a.unlock(), b.unlock()]);
  });
});

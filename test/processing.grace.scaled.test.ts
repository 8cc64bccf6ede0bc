import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLadder } from './support/ladder';
import { getVideoReply, processSource } from './support/processSource';
import { databaseUrlFor } from './support/database';
import { startTestService, type TestService } from './support/service';
import { storageEnvFor, storedMedia, storedMediaNames } from './support/storage';

/**
 * A URL handed out keeps answering: the remux is PlayURL (and MobilePlayURL) at status 1, and
 * apps store it. A player that started on it reads on across the moment the rungs replace it;
 * after REMUX_GRACE_S the URL redirects to the best rung, never 404, also when the removal fell
 * due while the service was stopped.
 */

const run = promisify(execFile);
/** Rungs are encoded for real, on a machine other tests share. */
const LADDER_TIMEOUT_MS = 240_000;
/** What a `<video>` asks for at a time, roughly. */
const RANGE_BYTES = 64 * 1024;

let work: string;

/** H.264/AAC in MP4 (remuxed as it is), long enough that its rungs take a while. */
async function makeClip(name: string): Promise<string> {
  const file = join(work, name);
  await run('ffmpeg', [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=854x480:rate=25:duration=8'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=8'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ]);
  return file;
}

/** One range request, as a player makes it, checked to be a 206 of exactly the bytes asked for. */
async function readRange(url: string, start: number, end: number, etag: string): Promise<Buffer> {
  const reply = await fetch(url, { headers: { Range: `bytes=${start}-${end}`, 'If-Range': etag }, redirect: 'manual' });
  expect(reply.status).toBe(206);
  expect(reply.headers.get('content-range')).toMatch(new RegExp(`^bytes ${start}-${end}/`));
  return Buffer.from(await reply.arrayBuffer());
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ovu-grace-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('within the grace (REMUX_GRACE_S at its default)', { timeout: LADDER_TIMEOUT_MS }, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  }, 60_000);
  afterAll(() => service?.stop(true));

  it('a player reading the remux by ranges reads on to its end across the moment the rungs land', async () => {
    const { videoId, first } = await processSource(service, await makeClip('phone.mp4'), { timeoutMs: LADDER_TIMEOUT_MS });
    const playUrl = first.MediaSever.PlayURL;
    expect(first.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['Original']);
    expect(first.MediaSever.MobilePlayURL).toBe(playUrl);
    const whole = await fetch(playUrl);
    const etag = whole.headers.get('etag')!;
    const remux = Buffer.from(await whole.arrayBuffer());
    // Its URL moves to another file when the grace ends: a browser that kept the first bytes
    // must ask again, or it joins them to the other file's and the player stops on a decode error.
    expect(whole.headers.get('cache-control')).toBe('no-cache');

    // Plays (over and over, a viewer seeking back) until the rungs are listed, then on to the end.
    let landed = false;
    const ladder = waitForLadder(service.db, videoId).then(() => (landed = true));
    let offset = 0;
    let readsBefore = 0;
    let readsAfter = 0;
    while (!landed || offset < remux.length) {
      if (offset >= remux.length) offset = 0;
      const end = Math.min(offset + RANGE_BYTES, remux.length) - 1;
      const listedNow = (await getVideoReply(service, videoId)).VideoPlayFile.map((file) => file.BitrateLabel);
      const bytes = await readRange(playUrl, offset, end, etag);
      expect(bytes.equals(remux.subarray(offset, end + 1))).toBe(true);
      if (listedNow.includes('Original')) readsBefore++;
      else readsAfter++;
      offset = end + 1;
    }
    await ladder;
    expect(readsBefore).toBeGreaterThan(0);
    expect(readsAfter).toBeGreaterThan(0);

    const done = await getVideoReply(service, videoId);
    expect(done.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['480P', '360P', '240P']);
    expect(done.MediaSever.PlayURL).not.toBe(playUrl);
    expect((await fetch(done.MediaSever.PlayURL!, { method: 'HEAD' })).headers.get('cache-control')).toBe('public, max-age=3600');
    // Still there, and the whole of it still served after the rungs.
    expect(await storedMediaNames(service, videoId)).toContain('original.mp4');
    const again = await fetch(playUrl);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await again.arrayBuffer()).equals(remux)).toBe(true);
    expect((await storedMedia(service, videoId, 'original.mp4'))!.equals(remux)).toBe(true);
  });
});

describe('after the grace (REMUX_GRACE_S=3)', { timeout: LADDER_TIMEOUT_MS }, () => {
  let dataDir: string;
  let service: TestService;
  // A short lease makes the sweep (every third of it) run every second.
  const env = { REMUX_GRACE_S: '3', JOB_LEASE_MS: '3000' };
  beforeAll(async () => {
    service = await startTestService({ env });
    dataDir = service.dataDir;
  }, 60_000);
  afterAll(() => service?.stop(true));

  it('the remux URL redirects (307) to the best rung, also when its removal fell due while the service was stopped', async () => {
    const { videoId, first } = await processSource(service, await makeClip('camera.mp4'), { timeoutMs: LADDER_TIMEOUT_MS });
    const oldPath = new URL(first.MediaSever.PlayURL).pathname;
    await waitForLadder(service.db, videoId);
    const dueAt = Number(
      (await service.db.selectFrom('retired_play_files').select('remove_at').where('video_id', '=', videoId).executeTakeFirstOrThrow())
        .remove_at,
    );
    // Stopped within the grace: the remux is still stored, and falls due while no service runs.
    await service.stop();
    await new Promise((wake) => setTimeout(wake, Math.max(0, dueAt - Date.now()) + 200));
    service = await startTestService({ env, dataDir });
    // The same URL (the test's restart gets another port; PUBLIC_URL stays in a deployment).
    const oldUrl = `${service.address}${oldPath}`;

    const done = await getVideoReply(service, videoId);
    const best = done.MediaSever.PlayURL;
    expect(best).not.toBe(oldUrl);
    for (const method of ['GET', 'HEAD']) {
      const moved = await fetch(oldUrl, { method, redirect: 'manual', headers: { Range: 'bytes=0-1023' } });
      expect(moved.status).toBe(307);
      expect(new URL(moved.headers.get('location')!, oldUrl).href).toBe(best);
      expect(moved.headers.get('access-control-allow-origin')).toBe('*');
    }
    // Followed, as a player does: the best rung, ranges and all.
    const followed = await fetch(oldUrl, { headers: { Range: 'bytes=0-1023' } });
    expect(followed.status).toBe(206);
    expect(followed.url).toBe(best);
    expect(followed.headers.get('content-type')).toBe('video/mp4');

    // The sweep after the restart removes what fell due meanwhile; the URL keeps redirecting.
    const deadline = Date.now() + 30_000;
    while ((await storedMediaNames(service, videoId)).includes('original.mp4')) {
      if (Date.now() > deadline) throw new Error('the remux was never removed');
      await new Promise((wake) => setTimeout(wake, 100));
    }
    expect(await service.db.selectFrom('retired_play_files').select('file').where('video_id', '=', videoId).execute()).toEqual([]);
    expect((await fetch(oldUrl, { redirect: 'manual' })).status).toBe(307);
    // Another name the service never published for the video is still unknown.
    expect((await fetch(oldUrl.replace('original.mp4', 'other.mp4'), { redirect: 'manual' })).status).toBe(404);
  });
});

describe.runIf(process.env.TEST_DATABASE === 'postgres' && process.env.TEST_STORAGE === 's3')(
  'two instances on one database and bucket (REMUX_GRACE_S=3)',
  { timeout: LADDER_TIMEOUT_MS },
  () => {
    let first: TestService;
    let second: TestService;
    const env = { REMUX_GRACE_S: '3', JOB_LEASE_MS: '3000' };
    beforeAll(async () => {
      first = await startTestService({ env });
      const shared = { ...(await storageEnvFor(first.dataDir)), DATABASE_URL: (await databaseUrlFor(first.dataDir))! };
      second = await startTestService({ env: { ...env, ...shared } });
    }, 60_000);
    afterAll(async () => {
      await second?.stop(true);
      await first?.stop(true);
    });

    it('the other instance serves the replaced remux within the grace, then redirects; either sweeps it', async () => {
      const { videoId, first: reply } = await processSource(first, await makeClip('shared.mp4'), { timeoutMs: LADDER_TIMEOUT_MS });
      const remux = Buffer.from(await (await fetch(reply.MediaSever.PlayURL)).arrayBuffer());
      await waitForLadder(first.db, videoId);
      const onSecond = `${second.address}${new URL(reply.MediaSever.PlayURL).pathname}`;
      const within = await fetch(onSecond, { redirect: 'manual' });
      expect(within.status).toBe(200);
      expect(Buffer.from(await within.arrayBuffer()).equals(remux)).toBe(true);

      const deadline = Date.now() + 30_000;
      while ((await storedMediaNames(second, videoId)).includes('original.mp4')) {
        if (Date.now() > deadline) throw new Error('the remux was never removed');
        await new Promise((wake) => setTimeout(wake, 100));
      }
      const best = (await getVideoReply(second, videoId)).MediaSever.PlayURL;
      for (const target of [first, second]) {
        const moved = await fetch(`${target.address}${new URL(reply.MediaSever.PlayURL).pathname}`, { redirect: 'manual' });
        expect(moved.status).toBe(307);
        expect(new URL(best).pathname).toBe(new URL(moved.headers.get('location')!, onSecond).pathname);
      }
    });
  },
);

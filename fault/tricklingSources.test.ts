import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestVideo } from '../test/support/media';
import type { ServiceClient } from '../test/uploadHelpers';
import { serviceHome, startCrashable, stopCrashable, type CrashableService } from './support/crashableService';
import { waitUntil } from './support/processes';

// The attack, scaled down: an end user of app-a registers two videos whose source sends
// a byte now and then (never silent for DOWNLOAD_IDLE_TIMEOUT_MS), which used to hold both
// processing slots for DOWNLOAD_TIMEOUT_MS (1 h) while every other app's videos waited.
const RATE_WINDOW_MS = 5_000;

let work: string;
let clip: Buffer;
let sources: Server;
/** Requests the trickling source has taken so far. */
let trickled = 0;
let home: ReturnType<typeof serviceHome> | undefined;
let service: CrashableService | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-trickle-'));
  clip = readFileSync(await makeTestVideo(work, 'fast.mp4', { width: 320, height: 240, seconds: 1 }));
  sources = createServer((req, res) => {
    if (req.url === '/fast.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
      return;
    }
    trickled++;
    res.writeHead(200, { 'content-type': 'video/mp4' });
    const timer = setInterval(() => res.write('x'), 200);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((done) => sources.listen(0, '127.0.0.1', done));
}, 60_000);

afterAll(async () => {
  await stopCrashable(service);
  home?.remove();
  sources?.closeAllConnections();
  await new Promise((done) => sources?.close(done));
  rmSync(work, { recursive: true, force: true });
});

async function register(client: ServiceClient, appId: string, sourceFilePath: string): Promise<string> {
  const form = { ...client.auth(appId), VideoTitle: 'from a URL', SourceFileGetType: '2', SourceFilePath: sourceFilePath };
  const body = await (await fetch(`${client.address}/Api/Video/Post`, { method: 'POST', body: new URLSearchParams(form) })).json();
  expect(body.AuthMsg.ResultCode).toBe('1');
  return body.VideoId as string;
}

async function status(client: ServiceClient, appId: string, id: string): Promise<number> {
  const query = new URLSearchParams({ ...client.auth(appId), Id: id });
  return (await (await fetch(`${client.address}/Api/Video/Get?${query}`)).json()).Video.Status;
}

describe('two trickling sources of one app beside a fast source of another', () => {
  it("the fast video is downloaded and processed without waiting for them; they end in 4 with the rate floor's reason", async () => {
    home = serviceHome();
    // The default pools: 2 downloads, 2 transcodes, each app 1 of each.
    service = await startCrashable(home, {
      SOURCE_URL_ALLOW_PRIVATE: '1',
      DOWNLOAD_MIN_BYTES_PER_S: '1000',
      DOWNLOAD_RATE_WINDOW_MS: String(RATE_WINDOW_MS),
    });
    const origin = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
    const slow = [await register(service, 'app-a', `${origin}/drip-1.mp4`), await register(service, 'app-a', `${origin}/drip-2.mp4`)];
    await waitUntil('a trickling download', 15_000, () => (trickled > 0 ? true : undefined));

    const fast = await register(service, 'app-b', `${origin}/fast.mp4`);
    // Its download is done (5, 6 or 1) while both trickling videos still wait or download.
    const reached = await waitUntil('the fast video past its download', 30_000, async () => {
      const now = await status(service!, 'app-b', fast);
      return [5, 6, 1].includes(now) ? now : undefined;
    });
    expect(reached).not.toBe(4);
    expect(await Promise.all(slow.map((id) => status(service!, 'app-a', id)))).toEqual([
      expect.toBeOneOf([2, 3]),
      expect.toBeOneOf([2, 3]),
    ]);
    await waitUntil('the fast video in status 1', 60_000, async () => ((await status(service!, 'app-b', fast)) === 1 ? true : undefined));

    // The trickling ones end in 4, one after the other (app-a holds one download slot at a time).
    for (const id of slow) {
      const line = JSON.parse(await service.process.waitFor(new RegExp(`"message":"processing job failed".*"videoId":"${id}"`)));
      expect(line).toMatchObject({ kind: 'download' });
      expect(line.reason).toMatch(new RegExp(`^too-slow: \\d+ bytes in the last ${RATE_WINDOW_MS} ms, under the floor of 1000 bytes/s$`));
      await waitUntil(`video ${id} in status 4`, 30_000, async () => ((await status(service!, 'app-a', id)) === 4 ? true : undefined));
    }
    expect(trickled).toBe(2);
  });
});

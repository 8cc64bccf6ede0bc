import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/server/log';
import { startTestService, TEST_APPS, type TestService } from './support/service';

/**
 * Type 2 through the public API: registration queues the download, and a refused or failed
 * download ends in status 4 with the reason kept and the app's callback told.
 */

let callbacks: Record<string, string>[];
let receiver: Server;
let source: Server;
let sourceRequests = 0;
let strict: TestService;
let permissive: TestService;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  callbacks = [];
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      callbacks.push(Object.fromEntries(new URLSearchParams(body)));
      res.writeHead(200).end();
    });
  });
  source = createServer((_req, res) => {
    sourceRequests++;
    res.writeHead(404).end();
  });
  const receiverPort = await listen(receiver);
  const sourcePort = await listen(source);
  const apps = TEST_APPS.map((app) => ({ ...app, callbackUrl: `http://127.0.0.1:${receiverPort}/cb` }));
  strict = await startTestService({ apps });
  permissive = await startTestService({ apps, env: { SOURCE_URL_ALLOW_PRIVATE: '1' } });
  sourceUrl = `http://127.0.0.1:${sourcePort}/clip.mp4`;
});
let sourceUrl = '';

afterAll(async () => {
  await strict.stop(true);
  await permissive.stop(true);
  receiver.closeAllConnections();
  source.closeAllConnections();
  await Promise.all([receiver, source].map((server) => new Promise((done) => server.close(done))));
});

async function register(service: TestService, sourceFilePath: string): Promise<string> {
  const res = await fetch(`${service.address}/Api/Video/Post`, {
    method: 'POST',
    body: new URLSearchParams({ ...service.auth(), VideoTitle: 'from a URL', SourceFileGetType: '2', SourceFilePath: sourceFilePath }),
  });
  const body = await res.json();
  expect(body.AuthMsg.ResultCode).toBe('1');
  return body.VideoId as string;
}

async function status(service: TestService, id: string): Promise<number> {
  const query = new URLSearchParams({ ...service.auth(), Id: id });
  return (await (await fetch(`${service.address}/Api/Video/Get?${query}`)).json()).Video.Status;
}

describe('SourceFileGetType 2 through the service', () => {
  it('refuses a loopback source by default: status 4, reason kept, callback 4, source never contacted', async () => {
    const id = await register(strict, sourceUrl);
    await vi.waitFor(() => expect(callbacks.find((c) => c.VideoId === id)).toBeDefined(), { timeout: 15_000 });
    expect(callbacks.find((c) => c.VideoId === id)).toMatchObject({ VideoStatus: '4', AppId: 'app-a' });
    expect(await status(strict, id)).toBe(4);
    expect((await strict.context.stores.videos.get(id))!.statusReason).toMatch(/^private-address: /);
    expect(sourceRequests).toBe(0);
  });

  it('with SOURCE_URL_ALLOW_PRIVATE=1 reaches the loopback source, and a 404 ends in status 4', async () => {
    const id = await register(permissive, sourceUrl);
    await vi.waitFor(() => expect(callbacks.find((c) => c.VideoId === id)).toBeDefined(), { timeout: 15_000 });
    expect(callbacks.find((c) => c.VideoId === id)).toMatchObject({ VideoStatus: '4' });
    expect((await permissive.context.stores.videos.get(id))!.statusReason).toBe('http-status: HTTP 404');
    expect(sourceRequests).toBe(1);
  });

  it('ends a download whose source trickles under DOWNLOAD_MIN_BYTES_PER_S over DOWNLOAD_RATE_WINDOW_MS in status 4, the log naming rate and window', async () => {
    // A byte every 100 ms: never silent for DOWNLOAD_IDLE_TIMEOUT_MS, far under 100 bytes/s.
    const trickle = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
    });
    const port = await listen(trickle);
    const lines: Record<string, unknown>[] = [];
    const service = await startTestService({
      apps: TEST_APPS.map((app) => ({ ...app, callbackUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb` })),
      env: { SOURCE_URL_ALLOW_PRIVATE: '1', DOWNLOAD_MIN_BYTES_PER_S: '100', DOWNLOAD_RATE_WINDOW_MS: '500' },
      log: createLogger((line) => lines.push(JSON.parse(line))),
    });
    try {
      const id = await register(service, `http://127.0.0.1:${port}/drip.mp4`);
      await vi.waitFor(() => expect(callbacks.find((c) => c.VideoId === id)).toMatchObject({ VideoStatus: '4' }), { timeout: 15_000 });
      expect(await status(service, id)).toBe(4);
      const reason = (await service.context.stores.videos.get(id))!.statusReason;
      expect(reason).toMatch(/^too-slow: \d+ bytes in the last 500 ms, under the floor of 100 bytes\/s$/);
      expect(lines.find((line) => line.message === 'processing job failed' && line.videoId === id)).toMatchObject({
        kind: 'download',
        reason,
      });
    } finally {
      await service.stop(true);
      trickle.closeAllConnections();
      await new Promise((done) => trickle.close(done));
    }
  });
});

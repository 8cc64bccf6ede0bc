import { createHmac, timingSafeEqual } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { tokenMatches } from '../src/server/auth/token';
import type { ServiceConfig } from '../src/server/config';
import { createLogger } from '../src/server/log';
import { markProcessed } from '../src/server/processing/pipeline';
import { VideoStatus } from '../src/shared/videoStatus';
import { openTestDatabase } from './support/database';
import { startTestService, type TestService } from './support/service';
import { insertVideoIn, newVideo } from './support/videos';

const SECRET = 'secret-of-app-a-0123456789';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type Reply = number | 'hang';

/** An app backend's callback endpoint on 127.0.0.1; `reply` picks each answer's status. */
interface Receiver {
  port: number;
  received: Received[];
  /** Most requests it held open at the same time. */
  maxConcurrent: number;
  close(): Promise<void>;
}

async function startReceiver(reply: (index: number) => Reply = () => 200, port = 0): Promise<Receiver> {
  const state = { received: [] as Received[], open: 0, maxConcurrent: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = state.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) }) - 1;
      state.open++;
      state.maxConcurrent = Math.max(state.maxConcurrent, state.open);
      res.on('close', () => state.open--);
      const status = reply(index);
      if (status === 'hang') return;
      if (status >= 300 && status < 400) res.writeHead(status, { location: '/elsewhere' }).end();
      else res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    get received() {
      return state.received;
    },
    get maxConcurrent() {
      return state.maxConcurrent;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A port nothing listens on: a receiver that is down. */
async function closedPort(): Promise<number> {
  const probe = await startReceiver();
  await probe.close();
  return probe.port;
}

interface Harness {
  service: TestService;
  logs: Record<string, unknown>[];
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(callbackPort: number | undefined, config: Partial<ServiceConfig> = {}, dataDir?: string): Promise<Harness> {
  const logs: Record<string, unknown>[] = [];
  const apps: AppRecord[] = [
    {
      appId: 'app-a',
      appSecret: SECRET,
      ...(callbackPort ? { callbackUrl: `http://127.0.0.1:${callbackPort}/video-status?from=ovu` } : {}),
    },
  ];
  const service = await startTestService({
    apps,
    dataDir,
    log: createLogger((line) => logs.push(JSON.parse(line))),
    config: { callbackRetryBaseMs: 100, callbackTimeoutMs: 2_000, ...config },
  });
  // A test may stop the service itself to restart it; the data directory goes either way.
  let stopped = false;
  const stop = service.stop.bind(service);
  service.stop = async (removeData) => {
    stopped = true;
    await stop(removeData);
  };
  cleanups.push(async () => {
    if (stopped) rmSync(service.dataDir, { recursive: true, force: true });
    else await service.stop(true);
  });
  return { service, logs };
}

/** A video that reached the end of processing; `markProcessed` queues its callback. */
async function finish(service: TestService, to: 1 | 4 | 7 = VideoStatus.Normal): Promise<string> {
  const video = newVideo();
  const id = video.id;
  const from = to === VideoStatus.DownloadFailed ? VideoStatus.Downloading : VideoStatus.Transcoding;
  await insertVideoIn(service.context.stores, video, from);
  expect(await markProcessed(service.context, id, [from], to, to === 1 ? '' : 'test failure')).toBe(true);
  return id;
}

interface CallbackRow {
  state: string;
  attempts: number;
  last_error: string;
  next_attempt_at: number;
}

async function row(service: TestService, videoId: string): Promise<CallbackRow> {
  return service.db
    .selectFrom('callbacks')
    .select(['state', 'attempts', 'last_error', 'next_attempt_at'])
    .where('video_id', '=', videoId)
    .executeTakeFirstOrThrow();
}

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

function fieldsOf(received: Received): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(received.body.toString('utf8')));
}

/** What an app backend should do with the signature header. */
function signatureValid(received: Received, secret: string): boolean {
  const header = String(received.headers['x-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(received.body).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

function expectNoSecrets(logs: Record<string, unknown>[], tokens: string[]) {
  const text = JSON.stringify(logs);
  expect(text).not.toContain(SECRET);
  for (const token of tokens) expect(text).not.toContain(token);
}

describe('status callback', () => {
  it('POSTs the signed form to the callbackUrl once the video is ready', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { service, logs } = await start(receiver.port);
    const before = Math.floor(Date.now() / 1000);
    const id = await finish(service, VideoStatus.Normal);

    await waitFor(async () => expect((await row(service, id)).state).toBe('delivered'));
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received as [Received];
    expect(request.path).toBe('/video-status?from=ovu');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const fields = fieldsOf(request);
    expect(fields).toMatchObject({ VideoId: id, VideoStatus: '1', AppId: 'app-a' });
    expect(Number(fields.Timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(fields.Timestamp)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(tokenMatches(fields.Token!, fields.Timestamp!, SECRET)).toBe(true);
    expect(signatureValid(request, SECRET)).toBe(true);
    expect(signatureValid(request, 'some-other-secret-0123456789')).toBe(false);
    expect(await row(service, id)).toMatchObject({ attempts: 1, last_error: '' });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'info', message: 'callback delivered', videoId: id, attempt: 1 }));
    expectNoSecrets(logs, [fields.Token!]);
  });

  it('claims a callback only once its step has committed: a rolled-back step sends nothing', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { service } = await start(receiver.port);
    const video = newVideo();
    await insertVideoIn(service.context.stores, video, VideoStatus.Transcoding);
    const step = service.context.transaction(async (ctx) => {
      expect(await markProcessed(ctx, video.id, [VideoStatus.Transcoding], VideoStatus.Normal)).toBe(true);
      throw new Error('a later write of the same step failed');
    });
    await expect(step).rejects.toThrow('a later write of the same step failed');

    const committed = await finish(service);
    await waitFor(async () => expect((await row(service, committed)).state).toBe('delivered'));
    expect(receiver.received.map((r) => fieldsOf(r).VideoId)).toEqual([committed]);
    expect((await service.context.stores.videos.get(video.id))!.status).toBe(VideoStatus.Transcoding);
  });

  it('gives up, with its reason and a log line, a callback to a loopback address while PUBLIC_URL is public', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const logs: Record<string, unknown>[] = [];
    // PUBLIC_URL is only a name here: the service never contacts it.
    const service = await startTestService({
      apps: [{ appId: 'app-a', appSecret: SECRET, callbackUrl: `http://localhost:${receiver.port}/video-status` }],
      env: { PUBLIC_URL: 'https://video.example.com' },
      log: createLogger((line) => logs.push(JSON.parse(line))),
    });
    cleanups.push(() => service.stop(true));
    const id = await finish(service);
    await waitFor(async () => expect((await row(service, id)).state).toBe('gave_up'));
    expect((await row(service, id)).last_error).toMatch(/loopback address; CALLBACK_URL_ALLOW_PRIVATE=1 allows it/);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'callback refused by the address policy', videoId: id }),
    );
    expect(receiver.received).toEqual([]);
  });

  it('reports failed processing (7 and 4) the same way', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { service } = await start(receiver.port);
    const failed = await finish(service, VideoStatus.TranscodingFailed);
    const notDownloaded = await finish(service, VideoStatus.DownloadFailed);
    await waitFor(() => expect(receiver.received).toHaveLength(2));
    const statuses = Object.fromEntries(receiver.received.map((r) => [fieldsOf(r).VideoId, fieldsOf(r).VideoStatus]));
    expect(statuses).toEqual({ [failed]: '7', [notDownloaded]: '4' });
  });

  it('retries a receiver that is down, and delivers once it is up', async () => {
    const port = await closedPort();
    const { service, logs } = await start(port);
    const id = await finish(service);
    // An attempt is counted when it starts; its log line comes when it has failed.
    await waitFor(() =>
      expect(logs).toContainEqual(expect.objectContaining({ message: 'callback attempt failed', attempt: 2, retryInMs: 300 })),
    );
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'callback attempt failed',
        videoId: id,
        attempt: 1,
        error: 'ECONNREFUSED',
        retryInMs: 100,
      }),
    );
    expect(await row(service, id)).toMatchObject({ state: 'pending', last_error: 'ECONNREFUSED' });

    const receiver = await startReceiver(() => 200, port);
    cleanups.push(receiver.close);
    await waitFor(async () => expect((await row(service, id)).state).toBe('delivered'));
    expect(receiver.received.map((r) => fieldsOf(r).VideoId)).toEqual([id]);
  });

  it('treats a non-2xx reply as a failure, does not follow redirects, and retries', async () => {
    const receiver = await startReceiver((index) => [500, 302][index] ?? 204);
    cleanups.push(receiver.close);
    const { service, logs } = await start(receiver.port);
    const id = await finish(service);
    await waitFor(async () => expect((await row(service, id)).state).toBe('delivered'));
    expect((await row(service, id)).attempts).toBe(3);
    expect(receiver.received.map((r) => r.path)).toEqual(Array(3).fill('/video-status?from=ovu'));
    const errors = logs.filter((line) => line.message === 'callback attempt failed').map((line) => line.error);
    expect(errors).toEqual(['HTTP 500', 'HTTP 302']);
    // Each attempt is signed afresh and verifies on its own.
    expect(receiver.received.every((r) => signatureValid(r, SECRET))).toBe(true);
    expectNoSecrets(
      logs,
      receiver.received.map((r) => fieldsOf(r).Token!),
    );
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const receiver = await startReceiver((index) => (index === 0 ? 'hang' : 200));
    cleanups.push(receiver.close);
    const { service, logs } = await start(receiver.port, { callbackTimeoutMs: 300 });
    const id = await finish(service);
    await waitFor(async () => expect((await row(service, id)).state).toBe('delivered'));
    expect(logs).toContainEqual(
      expect.objectContaining({ message: 'callback attempt failed', attempt: 1, error: 'no reply within 300 ms' }),
    );
  });

  it('gives up after the configured number of attempts, records it and logs an error', async () => {
    const receiver = await startReceiver(() => 503);
    cleanups.push(receiver.close);
    const { service, logs } = await start(receiver.port, { callbackMaxAttempts: 3, callbackRetryBaseMs: 20 });
    const id = await finish(service);
    await waitFor(async () => expect((await row(service, id)).state).toBe('gave_up'));
    expect(await row(service, id)).toMatchObject({ attempts: 3, last_error: 'HTTP 503' });
    expect(receiver.received).toHaveLength(3);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'callback given up',
        videoId: id,
        appId: 'app-a',
        attempts: 3,
        error: 'HTTP 503',
      }),
    );
  });

  it('records an app without a callbackUrl as given up at once, sending nothing', async () => {
    const { service, logs } = await start(undefined);
    const id = await finish(service);
    await waitFor(async () => expect((await row(service, id)).state).toBe('gave_up'));
    expect(await row(service, id)).toMatchObject({ attempts: 0, last_error: 'no callbackUrl' });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'info', message: 'callback not sent: no callbackUrl', videoId: id }));
  });

  it('keeps at most callbackConcurrency requests in flight and sends each row once at a time', async () => {
    const receiver = await startReceiver(() => 'hang');
    cleanups.push(receiver.close);
    const { service } = await start(receiver.port, { callbackConcurrency: 2, callbackTimeoutMs: 400, callbackRetryBaseMs: 60_000 });
    const ids = await Promise.all(Array.from({ length: 5 }, () => finish(service)));
    // Every request hangs until its time limit; all five must still get their one attempt.
    await waitFor(() => expect(receiver.received).toHaveLength(5));
    expect(receiver.maxConcurrent).toBe(2);
    expect(receiver.received.map((r) => fieldsOf(r).VideoId).sort()).toEqual([...ids].sort());
    expect(await Promise.all(ids.map(async (id) => (await row(service, id)).attempts))).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('status callback across a restart', () => {
  it('delivers a pending callback after the service restarts on the same DATA_DIR', async () => {
    const port = await closedPort();
    const first = await start(port);
    const id = await finish(first.service);
    await waitFor(async () => expect((await row(first.service, id)).attempts).toBeGreaterThanOrEqual(1));
    const dataDir = first.service.dataDir;
    await first.service.stop(false);

    const receiver = await startReceiver(() => 200, port);
    cleanups.push(receiver.close);
    // Nothing new is queued after the restart: the pending row alone must bring the delivery.
    const second = await start(port, {}, dataDir);
    await waitFor(async () => expect((await row(second.service, id)).state).toBe('delivered'));
    expect(receiver.received.map((r) => fieldsOf(r))).toEqual([expect.objectContaining({ VideoId: id, VideoStatus: '1' })]);
  });

  it('does not count a request the shutdown cut short', async () => {
    const receiver = await startReceiver(() => 'hang');
    cleanups.push(receiver.close);
    const first = await start(receiver.port, { callbackTimeoutMs: 60_000 });
    const id = await finish(first.service);
    await waitFor(() => expect(receiver.received).toHaveLength(1));
    const dataDir = first.service.dataDir;
    await first.service.stop(false);
    const database = await openTestDatabase(dataDir);
    const stored = await database.db
      .selectFrom('callbacks')
      .select(['state', 'attempts', 'next_attempt_at'])
      .where('video_id', '=', id)
      .executeTakeFirstOrThrow();
    await database.close();
    // Due again at once and with no attempt spent, so the next start sends it straight away.
    expect(stored).toMatchObject({ state: 'pending', attempts: 0 });
    expect(stored.next_attempt_at).toBeLessThanOrEqual(Date.now());
  });
});

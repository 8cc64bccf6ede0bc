import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import type { AppRecord } from '../src/server/auth/apps';
import { silentLogger } from '../src/server/log';
import { ServiceMetrics } from '../src/server/operator/metrics';
import { openStores } from '../src/server/storage/stores';
import { type NewVideo } from '../src/server/storage/videos';
import { VideoStatus } from '../src/shared/videoStatus';
import { databaseUrlFor } from './support/database';
import { waitForLadder } from './support/ladder';
import { makeTestVideo } from './support/media';
import { startTestService, TEST_APPS, type TestService } from './support/service';
import { newVideo } from './support/videos';
import { openUploader, registerVideo, tusCreate, uploadWithClient } from './uploadHelpers';

const OPS_TOKEN = 'ops-token-0123456789abcdef';
const bearer = { Authorization: `Bearer ${OPS_TOKEN}` };

let work: string;
let clip: Buffer;
const servers: Server[] = [];
const services: TestService[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-metrics-'));
  clip = readFileSync(await makeTestVideo(work, 'clip.mp4', { width: 320, height: 240, seconds: 1 }));
}, 60_000);
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop(true);
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((closed) => server.close(() => closed()));
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A server on 127.0.0.1 answering every request with `answer`; resolves with its base URL. */
async function serve(answer: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(answer);
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function start(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const service = await startTestService({ ...options, env: { OPS_TOKEN, ...options.env } });
  services.push(service);
  return service;
}

/** The Prometheus text as a map from `name{labels}` to its value. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    found.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return found;
}

async function scrape(address: string, headers: Record<string, string> = bearer): Promise<{ text: string; values: Map<string, number> }> {
  const res = await fetch(`${address}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const text = await res.text();
  return { text, values: samples(text) };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let tries = 0; tries < 600; tries++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('GET /metrics', () => {
  it('counts an upload, a download, their transcodes and callbacks, per app, with bounded labels', async () => {
    const delivered: string[] = [];
    const accepting = await serve((req, res) => {
      req.on('data', (chunk: Buffer) => delivered.push(chunk.toString()));
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    const refusing = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(500).end());
    });
    const source = await serve((req, res) => {
      if (req.url === '/clip.mp4') res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': clip.length }).end(clip);
      else res.writeHead(404).end();
    });
    const apps: AppRecord[] = [
      { ...TEST_APPS[0]!, callbackUrl: `${accepting}/cb` },
      { ...TEST_APPS[1]!, callbackUrl: `${refusing}/cb` },
    ];
    const service = await start({ apps, env: { SOURCE_URL_ALLOW_PRIVATE: '1', CALLBACK_MAX_ATTEMPTS: '1' } });
    const status = async (videoId: string) => (await service.context.stores.videos.get(videoId))!.status;
    const final = (videoId: string) =>
      until(
        () => status(videoId),
        (value) => ([1, 4, 7] as number[]).includes(value),
        `video ${videoId} to end`,
      );

    // app-a: one upload by tus and one download, both transcoded; app-b: a download whose source is missing.
    const uploaded = await registerVideo(service, 'app-a');
    await uploadWithClient(await openUploader(service, uploaded), clip);
    const register = async (appId: string, path: string) =>
      (await service.post({ ...service.auth(appId), VideoTitle: 'remote', SourceFileGetType: '2', SourceFilePath: `${source}${path}` }))
        .body.VideoId as string;
    const downloaded = await register('app-a', '/clip.mp4');
    const missing = await register('app-b', '/gone.mp4');
    expect([await final(uploaded), await final(downloaded), await final(missing)]).toEqual([
      VideoStatus.Normal,
      VideoStatus.Normal,
      VideoStatus.DownloadFailed,
    ]);
    // The H.264 clip reaches 1 with its remux; its rungs (240P alone) are a transcode job of their own after that.
    await Promise.all([waitForLadder(service.db, uploaded), waitForLadder(service.db, downloaded)]);

    const { text, values } = await until(
      () => scrape(service.address),
      ({ values }) =>
        values.get('ovu_callbacks_sent_total{app_id="app-a"}') === 2 && values.get('ovu_callbacks_given_up_total{app_id="app-b"}') === 1,
      'the callbacks',
    );
    expect(delivered).toHaveLength(2);
    expect(Object.fromEntries([...values].filter(([name]) => /^ovu_(uploads|upload_bytes|callbacks|jobs|ffmpeg)/.test(name)))).toEqual({
      'ovu_uploads_created_total{app_id="app-a"}': 1,
      'ovu_uploads_completed_total{app_id="app-a"}': 1,
      'ovu_uploads_in_progress{app_id="app-a"}': 0,
      'ovu_upload_bytes_received_total{app_id="app-a"}': clip.length,
      'ovu_callbacks_sent_total{app_id="app-a"}': 2,
      'ovu_callbacks_failed_total{app_id="app-b"}': 1,
      'ovu_callbacks_given_up_total{app_id="app-b"}': 1,
      'ovu_jobs_queued{kind="download"}': 0,
      'ovu_jobs_queued{kind="transcode"}': 0,
      'ovu_jobs_running{kind="download"}': 0,
      'ovu_jobs_running{kind="transcode"}': 0,
      ovu_jobs_oldest_queued_age_seconds: 0,
      ovu_ffmpeg_processes: 0,
    });
    expect(values.get('ovu_job_duration_seconds_count{kind="download",outcome="done"}')).toBe(1);
    expect(values.get('ovu_job_duration_seconds_count{kind="download",outcome="failed"}')).toBe(1);
    expect(values.get('ovu_job_duration_seconds_count{kind="transcode",outcome="done"}')).toBe(4);
    expect(values.get('ovu_job_duration_seconds_sum{kind="transcode",outcome="done"}')).toBeGreaterThan(0);
    expect(values.get('ovu_http_request_duration_seconds_count{route="/Api/Video/Post",status_class="2xx"}')).toBe(3);
    expect(values.get('ovu_http_request_duration_seconds_count{route="/UploadWidget/files/*",status_class="2xx"}')).toBeGreaterThanOrEqual(
      2,
    );
    expect(values.get('ovu_http_request_duration_seconds_bucket{le="+Inf",route="/UploadWidget/Upload",status_class="2xx"}')).toBe(1);
    // The default process metrics.
    expect(values.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(values.has('nodejs_eventloop_lag_seconds')).toBe(true);
    // No label names a video, a user, a path or a URL.
    for (const unbounded of [uploaded, downloaded, missing, source, accepting, service.dataDir, 'createUser'])
      expect(text).not.toContain(unbounded);
  }, 120_000);

  it('counts a PATCH being received as an upload in progress, and its bytes as they arrive', async () => {
    const service = await start();
    const boot = await openUploader(service, await registerVideo(service));
    const uploadUrl = (await tusCreate(boot.tusEndpoint, boot.ticket, 1000)).headers.get('location')!;
    const patch = request(uploadUrl, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': '1000',
        [TICKET_HEADER]: boot.ticket,
      },
    });
    patch.on('error', () => {});
    patch.write(Buffer.alloc(400));
    const { values } = await until(
      () => scrape(service.address),
      ({ values }) => values.get('ovu_upload_bytes_received_total{app_id="app-a"}') === 400,
      'the first bytes',
    );
    expect(values.get('ovu_uploads_in_progress{app_id="app-a"}')).toBe(1);
    patch.destroy();
    await until(
      () => scrape(service.address),
      ({ values }) => values.get('ovu_uploads_in_progress{app_id="app-a"}') === 0,
      'the PATCH to end',
    );
  });

  it('answers 401 without the OPS_TOKEN Bearer, and to everyone when OPS_TOKEN is unset', async () => {
    const service = await start();
    for (const headers of [{}, { Authorization: `Bearer ${OPS_TOKEN}0` }, { Authorization: `Basic ${OPS_TOKEN}` }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(`${service.address}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="operator"');
      expect((await res.json()).AuthMsg.ResultCode).toBe('108');
    }
    const unset = await startTestService({});
    services.push(unset);
    expect((await fetch(`${unset.address}/metrics`, { headers: bearer })).status).toBe(401);
    expect(unset.opsAddress).toBeUndefined();
  });

  it('serves /metrics and the detailed /readyz without a token on OPS_PORT, bound to loopback', async () => {
    const service = await startTestService({ env: { OPS_PORT: '0' }, config: { ffmpegPath: '/nonexistent/bin/ffmpeg' } });
    services.push(service);
    expect(service.opsAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.opsAddress).not.toBe(service.address);
    const { values } = await scrape(service.opsAddress!, {});
    expect(values.has('process_resident_memory_bytes')).toBe(true);
    const ready = await fetch(`${service.opsAddress}/readyz`);
    expect([ready.status, (await ready.json()).checks.ffmpeg]).toEqual([503, 'FFMPEG_PATH not found']);
    expect(ready.headers.get('x-request-id')).toBeTruthy();
    // The public port still asks for the token, and the operator's port serves nothing else.
    expect((await fetch(`${service.address}/metrics`)).status).toBe(401);
    expect((await (await fetch(`${service.address}/readyz`)).json()).checks.ffmpeg).toBe('failing');
    expect((await fetch(`${service.opsAddress}/Api/Video/Get`)).status).toBe(404);
  });
});

describe('queue figures', () => {
  it('come from the database: what every instance on it sees, with the age of the oldest queued job', async () => {
    const dataDir = mkdtempSync(join(work, 'queue-'));
    const stores = await openStores({ dataDir, databaseUrl: await databaseUrlFor(dataDir) });
    try {
      const now = 1_700_000_000_000;
      const videos: NewVideo[] = [];
      for (let index = 0; index < 4; index++) {
        const video = newVideo({ appId: 'app-a', status: VideoStatus.WaitingForDownload });
        await stores.videos.insert(video);
        videos.push(video);
      }
      await stores.jobs.enqueue({ videoId: videos[0]!.id, appId: 'app-a', kind: 'download' }, now - 90_000);
      await stores.jobs.enqueue({ videoId: videos[1]!.id, appId: 'app-a', kind: 'download' }, now - 30_000);
      await stores.jobs.enqueue({ videoId: videos[2]!.id, appId: 'app-a', kind: 'download' }, now - 10_000);
      await stores.jobs.enqueue({ videoId: videos[3]!.id, appId: 'app-a', kind: 'transcode' }, now - 5_000);
      await stores.jobs.claim(now, now + 60_000); // the oldest runs now
      expect(await stores.jobs.queueFigures()).toEqual({
        queued: { download: 2, transcode: 1 },
        running: { download: 1, transcode: 0 },
        oldestQueuedAt: now - 30_000,
      });

      const metrics = new ServiceMetrics({
        queueFigures: () => stores.jobs.queueFigures(),
        mediaToolsRunning: () => 0,
        poolUse: () => stores.poolUse(),
        now: () => now,
        log: silentLogger,
      });
      const values = samples(await metrics.registry.metrics());
      expect(values.get('ovu_jobs_queued{kind="download"}')).toBe(2);
      expect(values.get('ovu_jobs_queued{kind="transcode"}')).toBe(1);
      expect(values.get('ovu_jobs_running{kind="download"}')).toBe(1);
      expect(values.get('ovu_jobs_oldest_queued_age_seconds')).toBe(30);
      // PostgreSQL's pool, as this instance holds it; SQLite has none to report.
      if (stores.dialect === 'postgres') {
        expect(values.get('ovu_db_pool_connections{state="max"}')).toBe(10);
        expect(values.get('ovu_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
        expect(values.get('ovu_db_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
      } else {
        expect([...values.keys()].some((name) => name.startsWith('ovu_db_pool_connections'))).toBe(false);
      }
    } finally {
      await stores.close();
    }
  });
});

import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { connect, type Connection } from '../src/server/storage/db';
import { freePort } from '../test/support/ports';
import { startPostgres, type TestPostgres } from '../test/support/postgres';
import { startRoundRobinProxy, type ProxiedRequest, type RoundRobinProxy } from '../test/support/roundRobinProxy';
import { startS3, type TestS3 } from '../test/support/s3';
import { appAuth } from '../test/support/service';
import { startServiceProcess, type ServiceProcess } from '../test/support/serviceProcess';
import { sha256 } from '../test/uploadHelpers';
import { waitUntil } from '../fault/support/processes';
import { launchBrowser, newContext, throttleUploads, type Throttle } from './support/browser';
import { startCallbackReceiver, type CallbackReceiver } from './support/callbackReceiver';
import { startHostServer, type HostServer } from './support/hostServer';
import { listenLoopback, type LoopbackServer } from './support/httpServer';
import { makeVideo, removeVideo, sha256File } from './support/media';
import { chooseFile, openPopup, waitForEvents, waitForProgress, type RecordedEvent } from './support/widget';
import { assertBuilt } from './support/world';

// Two service processes on one PostgreSQL database and one S3 bucket (OpenStack Swift), each with
// a DATA_DIR of its own, behind a round-robin proxy with no stickiness: the widget in Chromium
// knows only the proxy's address, which is the instances' PUBLIC_URL.
const CHUNK = 1024 * 1024;
const LEASE_MS = 3_000;
const APP_ID = 'app-a';

let s3: TestS3;
let bucket: string;
let postgres: TestPostgres;
let databaseUrl: string;
let database: Connection;
let receiver: CallbackReceiver;
let host: HostServer;
let proxy: RoundRobinProxy;
let browser: Browser;
let context: BrowserContext;
let root: string;
let apps: AppRecord[];
let clip: string;
let s3Env: Record<string, string>;
const ports: number[] = [];
const instances: ServiceProcess[] = [];

/** Instance `index` on its port and DATA_DIR; started again after a kill, it takes the same ones. */
async function startInstance(index: number): Promise<void> {
  const child = startServiceProcess({
    ...s3Env,
    PORT: String(ports[index]),
    DATA_DIR: join(root, `instance-${index}`),
    DATABASE_URL: databaseUrl,
    APPS_FILE: join(root, 'apps.json'),
    PUBLIC_URL: proxy.url,
    UPLOAD_CHUNK_BYTES: String(CHUNK),
    JOB_LEASE_MS: String(LEASE_MS),
    PROCESSING_CONCURRENCY: '1',
    SOURCE_URL_ALLOW_PRIVATE: '1',
  });
  instances[index] = child;
  await child.waitFor(/service listening/);
}

beforeAll(async () => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'ovu-scale-'));
  // Each is kept as soon as it is up, so afterAll stops it even when another one fails to start.
  [s3, postgres, receiver, host, browser, clip] = await Promise.all([
    startS3().then((started) => (s3 = started)),
    startPostgres().then((started) => (postgres = started)),
    startCallbackReceiver(),
    startHostServer(),
    launchBrowser().then((started) => (browser = started)),
    // About 6 MB at a small size: six 1 MiB PATCHes, and a quick transcode.
    makeVideo({ seconds: 6, bitrate: 8_000_000, width: 320, height: 180 }, 'scale.mp4'),
  ]);
  const settings = await s3.newBucket();
  bucket = settings.bucket;
  s3Env = s3.env(settings);
  databaseUrl = await postgres.newDatabase();
  apps = [{ appId: APP_ID, appSecret: 'secret-of-app-a-0123456789', callbackUrl: receiver.url, allowedOrigins: [host.origin] }];
  writeFileSync(join(root, 'apps.json'), JSON.stringify(apps));
  ports.push(await freePort(), await freePort());
  proxy = await startRoundRobinProxy(ports.map((port) => `http://127.0.0.1:${port}`));
  host.serviceUrl = proxy.url;
  // Together, as a deployment would start them: both run the migrations, one at a time.
  await Promise.all([startInstance(0), startInstance(1)]);
  database = await connect({ dataDir: root, databaseUrl });
}, 120_000);
afterAll(async () => {
  for (const instance of instances) {
    instance.stop('SIGKILL');
    await instance.exit;
  }
  await database?.close();
  await browser?.close().catch(() => undefined);
  await Promise.all([proxy?.close(), receiver?.close(), host?.close()]);
  await Promise.all([s3?.stop(), postgres?.stop()]);
  removeVideo(clip);
  rmSync(root, { recursive: true, force: true });
});
beforeEach(async () => {
  context = await newContext(browser);
});
afterEach(() => context?.close());

async function registerVideo(fields: Record<string, string> = { SourceFileGetType: '1' }): Promise<string> {
  const reply = await fetch(`${proxy.url}/Api/Video/Post`, {
    method: 'POST',
    body: new URLSearchParams({ ...appAuth(apps, APP_ID), VideoTitle: 'scale-out e2e', CreateUser: 'e2e', ...fields }),
  });
  const body = (await reply.json()) as { AuthMsg: { ResultCode: string }; VideoId: string };
  expect(body.AuthMsg.ResultCode).toBe('1');
  return body.VideoId;
}

/** The host page's popup, the file chosen: the widget uploads through the proxy. */
async function startUpload(videoId: string, throttleBytesPerSecond?: number): Promise<{ page: Page; popup: Page; throttle?: Throttle }> {
  const { AppId, Timestamp, Token } = appAuth(apps, APP_ID);
  const page = await context.newPage();
  await page.goto(
    `${host.origin}/popup.html#${encodeURIComponent(JSON.stringify({ appId: AppId, timestamp: Timestamp, token: Token, videoId }))}`,
  );
  const popup = await openPopup(page);
  const throttle = throttleBytesPerSecond ? await throttleUploads(context, popup, throttleBytesPerSecond) : undefined;
  await chooseFile(popup, clip);
  return { page, popup, throttle };
}

/** The tus id the video's upload got (its row, in the shared database). */
async function uploadIdOf(videoId: string): Promise<string> {
  const row = await database.db.selectFrom('uploads').select('id').where('video_id', '=', videoId).executeTakeFirstOrThrow();
  return row.id;
}

/** The PATCHes of one upload the proxy passed on, in the order sent. */
function patchesOf(uploadId: string): ProxiedRequest[] {
  return proxy.requests.filter((request) => request.method === 'PATCH' && request.path.includes(uploadId));
}

async function bucketSha256(key: string): Promise<string> {
  const object = await s3.client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return sha256(await object.Body!.transformToByteArray());
}

async function expectInBucketIntact(videoId: string, uploadId: string): Promise<void> {
  const expected = await sha256File(clip);
  // tus wrote the source where it lies (its key chosen at creation): one object, no copy under the upload's id.
  expect(await bucketSha256(`media/${videoId}/source.mp4`), 'the video source').toBe(expected);
  const named = await s3.client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: uploadId }));
  expect((named.Contents ?? []).map((object) => object.Key)).not.toContain(uploadId);
}

const successes = (list: RecordedEvent[]) => list.filter((event) => event.type === 'success');

/** The log lines of both running instances saying `message` about `videoId`. */
function said(message: string, videoId: string): string[] {
  return instances.flatMap((instance) =>
    instance.lines.filter((line) => line.includes(`"message":"${message}"`) && line.includes(videoId)),
  );
}

describe('two instances on one database and one bucket, behind a round-robin proxy', () => {
  it('take turns with one upload’s PATCHes; the file ends byte-identical in the bucket and onSuccess fires once', async () => {
    const videoId = await registerVideo();
    const { page } = await startUpload(videoId);
    await waitForEvents(page, (list) => successes(list).length > 0);
    const uploadId = await uploadIdOf(videoId);

    const patches = patchesOf(uploadId);
    expect(patches.length).toBeGreaterThanOrEqual(Math.ceil(statSync(clip).size / CHUNK));
    expect(new Set(patches.map((patch) => patch.upstream)), 'both instances took PATCHes of the upload').toEqual(new Set([0, 1]));
    expect(patches.every((patch) => patch.status === 204)).toBe(true);
    await expectInBucketIntact(videoId, uploadId);
    // Time for a second success, were there one.
    await new Promise((wait) => setTimeout(wait, 1_000));
    expect(successes(await waitForEvents(page, () => true))).toHaveLength(1);
  });

  it('finish an upload through the other instance when one is killed mid-PATCH', async () => {
    const videoId = await registerVideo();
    // 1 MiB/s: each PATCH is on the wire about a second.
    const { page, popup, throttle } = await startUpload(videoId, CHUNK);
    await waitForProgress(popup, 20);
    const uploadId = await uploadIdOf(videoId);
    // Killed while it receives a PATCH of the upload: one sent 200 ms ago has most of its second to go.
    const inFlight = await waitUntil('a PATCH in flight on instance 0', 30_000, () =>
      patchesOf(uploadId).find((patch) => patch.upstream === 0 && patch.status === undefined && Date.now() - patch.sentAt > 200),
    );
    instances[0]!.stop('SIGKILL');
    await instances[0]!.exit;
    const sentBeforeKill = patchesOf(uploadId).length;
    await throttle!.lift();

    await waitForEvents(page, (list) => successes(list).length > 0);
    expect(inFlight.status, 'the PATCH cut by the kill').toBe(502);
    const afterKill = patchesOf(uploadId).slice(sentBeforeKill);
    expect(afterKill.length).toBeGreaterThan(0);
    expect(afterKill.every((patch) => patch.upstream === 1 && patch.status === 204)).toBe(true);
    await expectInBucketIntact(videoId, uploadId);
    expect(successes(await waitForEvents(page, () => true))).toHaveLength(1);

    await startInstance(0);
  });

  it('download, process and call back a type-2 video exactly once between them', async () => {
    let downloads = 0;
    const source: LoopbackServer = await listenLoopback((_req, res) => {
      downloads++;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(statSync(clip).size) });
      createReadStream(clip).pipe(res);
    });
    try {
      const videoId = await registerVideo({ SourceFileGetType: '2', SourceFilePath: `http://127.0.0.1:${source.port}/clip.mp4` });
      await receiver.waitFor(videoId, (callback) => callback.fields.VideoStatus === '1', 90_000);
      // The remux gives status 1; the ladder's rungs follow in transcode jobs of their own.
      const jobsOf = () =>
        database.db.selectFrom('jobs').select(['id', 'kind', 'state', 'attempts']).where('video_id', '=', videoId).orderBy('id').execute();
      await waitUntil('every job of the video done', 90_000, async () => {
        const jobs = await jobsOf();
        return jobs.length > 2 && jobs.every((job) => job.state === 'done') ? true : undefined;
      });
      // Time for a second run or a second callback, were there one: a lease that was not renewed runs out in LEASE_MS.
      await new Promise((wait) => setTimeout(wait, LEASE_MS + 500));

      const jobs = await jobsOf();
      expect(jobs.map(({ kind, state, attempts }) => ({ kind, state, attempts }))).toEqual([
        { kind: 'download', state: 'done', attempts: 1 },
        ...jobs.slice(1).map(() => ({ kind: 'transcode', state: 'done', attempts: 1 })),
      ]);
      // Each job started once, on one of the two instances.
      const started = said('processing job started', videoId).map((line) => (JSON.parse(line) as { jobId: number }).jobId);
      expect(started.toSorted((a, b) => a - b)).toEqual(jobs.map((job) => job.id));
      expect(downloads).toBe(1);
      expect(await bucketSha256(`media/${videoId}/source.mp4`)).toBe(await sha256File(clip));
      expect(
        receiver.received.filter((callback) => callback.fields.VideoId === videoId).map((callback) => callback.fields.VideoStatus),
      ).toEqual(['1']);
    } finally {
      await source.close();
    }
  });
});

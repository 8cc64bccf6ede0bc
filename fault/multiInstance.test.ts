import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackReceiver, type CallbackReceiver } from '../e2e/support/callbackReceiver';
import { makeTestVideo } from '../test/support/media';
import { startPostgres, type TestPostgres } from '../test/support/postgres';
import { startS3, type TestS3 } from '../test/support/s3';
import { appAuth, TEST_APPS } from '../test/support/service';
import { startServiceProcess } from '../test/support/serviceProcess';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { openUploader, registerVideo, sha256, tusCreate, tusPatch, type ServiceClient } from '../test/uploadHelpers';
import { stopCrashable, type CrashableService } from './support/crashableService';
import { makeLongVideo } from './support/media';
import { childrenOf, isRunning, waitUntil } from './support/processes';

// Two service processes on one PostgreSQL database and one S3 bucket (OpenStack Swift), each with
// its own DATA_DIR (the process ledger, scratch space).
const LEASE_MS = 3_000;
let postgres: TestPostgres;
let databaseUrl: string;
let s3: TestS3;
let s3Env: Record<string, string>;
let bucket: string;
let receiver: CallbackReceiver;
let root: string;
const running: CrashableService[] = [];

beforeAll(async () => {
  [postgres, s3, receiver] = await Promise.all([startPostgres(), startS3(), startCallbackReceiver()]);
  databaseUrl = await postgres.newDatabase();
  const settings = await s3.newBucket();
  bucket = settings.bucket;
  s3Env = s3.env(settings);
  root = mkdtempSync(join(tmpdir(), 'ovu-multi-'));
  writeFileSync(join(root, 'apps.json'), JSON.stringify([{ ...TEST_APPS[0]!, callbackUrl: receiver.url }]));
}, 60_000);
afterAll(async () => {
  for (const service of running) await stopCrashable(service);
  await receiver?.close();
  await Promise.all([postgres?.stop(), s3?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

/** A DATA_DIR of its own. */
function dataDir(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** One instance: its own DATA_DIR, the shared database and bucket; with the apps file unless `demo`. */
async function start(dir: string, options: { demo?: boolean; env?: Record<string, string> } = {}): Promise<CrashableService> {
  const env: Record<string, string> = {
    ...s3Env,
    PORT: '0',
    DATA_DIR: dir,
    DATABASE_URL: databaseUrl,
    JOB_LEASE_MS: String(LEASE_MS),
    PROCESSING_CONCURRENCY: '1',
    ...options.env,
  };
  if (!options.demo) env.APPS_FILE = join(root, 'apps.json');
  const process = startServiceProcess(env);
  const { address } = JSON.parse(await process.waitFor(/service listening/)) as { address: string };
  const service: CrashableService = { process, address, auth: (appId = 'app-a', at) => appAuth(TEST_APPS, appId, at) };
  running.push(service);
  return service;
}

async function statusOf(service: ServiceClient, videoId: string): Promise<number> {
  const query = new URLSearchParams({ ...service.auth(), Id: videoId });
  const reply = (await (await fetch(`${service.address}/Api/Video/Get?${query}`)).json()) as { Video: { Status: number } };
  return reply.Video.Status;
}

/** Uploads `file` for a new video: created on `first`, the second half sent to `second`. */
async function uploadAcross(first: ServiceClient, second: ServiceClient, file: string): Promise<string> {
  const videoId = await registerVideo(first);
  const boot = await openUploader(first, videoId);
  const bytes = readFileSync(file);
  const created = await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length);
  expect(created.status).toBe(201);
  const path = new URL(created.headers.get('location')!).pathname;
  const half = Math.floor(bytes.length / 2);
  expect((await tusPatch(`${first.address}${path}`, boot.ticket, 0, bytes.subarray(0, half))).status).toBe(204);
  expect((await tusPatch(`${second.address}${path}`, boot.ticket, half, bytes.subarray(half))).status).toBe(204);
  return videoId;
}

/** The log lines of every instance saying `message` about `videoId`. */
function said(services: readonly CrashableService[], message: string, videoId: string): string[] {
  return services.flatMap((service) =>
    service.process.lines.filter((line) => line.includes(`"message":"${message}"`) && line.includes(videoId)),
  );
}

describe('two instances on one database, each with its own DATA_DIR', () => {
  it('serve one demo app and take each other’s upload tickets', async () => {
    const dirs = [dataDir('demo-1'), dataDir('demo-2')];
    const [one, two] = await Promise.all(dirs.map((dir) => start(dir, { demo: true })));
    const secrets = dirs.map(
      (dir) => (JSON.parse(readFileSync(join(dir, 'demo-app.json'), 'utf8')) as { appSecret: string }[])[0]!.appSecret,
    );
    expect(secrets[1]).toBe(secrets[0]);
    const demo = (service: CrashableService): ServiceClient => ({
      address: service.address,
      auth: () => appAuth([{ appId: 'demo', appSecret: secrets[0]! }], 'demo'),
    });
    const videoId = await registerVideo(demo(one!), 'demo');
    const boot = await openUploader(demo(one!), videoId);
    expect((await tusCreate(`${two!.address}/UploadWidget/files`, boot.ticket, 10)).status).toBe(201);
    // Neither logged the demo secret.
    expect([...one!.process.lines, ...two!.process.lines].some((line) => line.includes(secrets[0]!))).toBe(false);
    await Promise.all([stopCrashable(one), stopCrashable(two)]);
  });

  it('run each queued job once and send each callback once, an upload’s PATCHes split between them', async () => {
    const [one, two] = await Promise.all([start(dataDir('a')), start(dataDir('b'))]);
    const clip = await makeTestVideo(root, 'clip.mp4', { width: 640, height: 360, seconds: 2 });
    const videoIds = [await uploadAcross(one!, two!, clip), await uploadAcross(two!, one!, clip), await uploadAcross(one!, two!, clip)];
    for (const videoId of videoIds) await receiver.waitFor(videoId, (callback) => callback.fields.VideoStatus === '1', 90_000);
    // Time for a second run or a second callback, were there one.
    await new Promise((wait) => setTimeout(wait, LEASE_MS));
    for (const videoId of videoIds) {
      expect(await statusOf(two!, videoId)).toBe(1);
      // One transcode job, then one for the rungs after its remux: each started once, on one instance.
      const started = said([one!, two!], 'processing job started', videoId).map((line) => (JSON.parse(line) as { jobId: number }).jobId);
      expect(started.length).toBeGreaterThan(0);
      expect(new Set(started).size).toBe(started.length);
      expect(receiver.received.filter((callback) => callback.fields.VideoId === videoId)).toHaveLength(1);
    }
    await Promise.all([stopCrashable(one), stopCrashable(two)]);
  });

  it('never interleave two PATCHes to one upload: the second waits while the first is asked to let go', async () => {
    const [one, two] = await Promise.all([start(dataDir('e')), start(dataDir('f'))]);
    const bytes = randomBytes(4 * 1024 * 1024);
    const videoId = await registerVideo(one!);
    const boot = await openUploader(one!, videoId);
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length);
    const path = new URL(created.headers.get('location')!).pathname;
    const headers = { 'Tus-Resumable': '1.0.0', 'Content-Type': 'application/offset+octet-stream', [TICKET_HEADER]: boot.ticket };

    // A slow client on the first instance: 16 KiB every 100 ms would take 25 s for the file.
    let sent = 0;
    const trickle = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((wait) => setTimeout(wait, 100));
        if (sent >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(sent, (sent += 16 * 1024)));
      },
    });
    const slowStarted = Date.now();
    const slow = fetch(`${one!.address}${path}`, {
      method: 'PATCH',
      headers: { ...headers, 'Upload-Offset': '0' },
      body: trickle,
      duplex: 'half',
    } as RequestInit).then(
      async (res) => ({ status: res.status, endedAfter: Date.now() - slowStarted }),
      () => ({ status: 0, endedAfter: Date.now() - slowStarted }),
    );
    await new Promise((wait) => setTimeout(wait, 1_000));

    // The same upload from offset 0 on the other instance: it waits for the lock, then finds the
    // first one's bytes there (409), rather than writing beside them.
    const asked = Date.now();
    const second = await fetch(`${two!.address}${path}`, {
      method: 'PATCH',
      headers: { ...headers, 'Upload-Offset': '0' },
      body: bytes.subarray(0, 1024 * 1024),
    });
    const waited = Date.now() - asked;
    expect(second.status).toBe(409);
    const first = await slow;
    // Asked to let go, the first PATCH ended long before its body was sent; the second waited for it.
    expect(first.endedAfter).toBeLessThan(12_000);
    expect(waited).toBeGreaterThanOrEqual(1_000);

    // The upload resumes from what the first one stored, through the second instance, and ends
    // byte for byte in the bucket.
    const head = await fetch(`${two!.address}${path}`, { method: 'HEAD', headers });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    const rest = await fetch(`${two!.address}${path}`, {
      method: 'PATCH',
      headers: { ...headers, 'Upload-Offset': String(offset) },
      body: bytes.subarray(offset),
    });
    expect(rest.status).toBe(204);
    const stored = await s3.client().send(new GetObjectCommand({ Bucket: bucket, Key: `media/${videoId}/source.mp4` }));
    expect(sha256(await stored.Body!.transformToByteArray())).toBe(sha256(bytes));
    await Promise.all([stopCrashable(one), stopCrashable(two)]);
  });

  it('buffer the parts that find no room in memory in their own DATA_DIR, in a folder only the service can open', async () => {
    const dir = dataDir('g');
    // No part memory: every part waits in a file, as those beyond S3_PART_MEMORY_BYTES do.
    const service = await start(dir, { env: { S3_PART_MEMORY_BYTES: '0' } });
    const bytes = randomBytes(2 * 1024 * 1024);
    const boot = await openUploader(service, await registerVideo(service));
    const uploadUrl = (await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length)).headers.get('location')!;
    const buffers = join(dir, 'tmp');
    // Half the body, then nothing until the part buffer has been looked at.
    let release!: () => void;
    const looked = new Promise<void>((resolve) => (release = resolve));
    let step = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (step === 0) controller.enqueue(bytes.subarray(0, bytes.length / 2));
        else if (step === 1) {
          await looked;
          controller.enqueue(bytes.subarray(bytes.length / 2));
        } else controller.close();
        step++;
      },
    });
    const headers = {
      'Tus-Resumable': '1.0.0',
      'Content-Type': 'application/offset+octet-stream',
      'Upload-Offset': '0',
      [TICKET_HEADER]: boot.ticket,
    };
    const patch = fetch(uploadUrl, { method: 'PATCH', headers, body, duplex: 'half' } as RequestInit);
    const buffered = await waitUntil('a part buffer', 10_000, () => {
      const names = readdirSync(buffers);
      return names.length > 0 ? names : undefined;
    });
    release();
    expect(buffered.length).toBeGreaterThan(0);
    expect(statSync(buffers).mode & 0o777).toBe(0o700);
    expect((await patch).status).toBe(204);
    await stopCrashable(service);
  });

  it('finish a job whose instance was killed mid-transcode on the other, once its lease ran out', async () => {
    const dirs = [dataDir('c'), dataDir('d')];
    const instances = await Promise.all(dirs.map((dir) => start(dir)));
    const videoId = await uploadAcross(instances[0]!, instances[1]!, await makeLongVideo(root, 30));
    // Whichever instance claimed the transcode is killed once its ffmpeg runs.
    const { holder, ffmpeg } = await waitUntil('a transcode ffmpeg', 60_000, () => {
      for (const instance of instances) {
        const found = childrenOf(instance.process.pid).find(
          ({ argv }) => argv[0] === 'ffmpeg' && argv.some((arg) => arg.includes(videoId)),
        );
        if (found) return { holder: instance, ffmpeg: found };
      }
      return undefined;
    });
    const survivor = instances.find((instance) => instance !== holder)!;
    holder.process.stop('SIGKILL');
    await holder.process.exit;
    const killedAt = Date.now();
    // SIGKILL ends the service alone: its ffmpeg goes on.
    expect(isRunning(ffmpeg.pid)).toBe(true);

    await receiver.waitFor(videoId, (callback) => callback.fields.VideoStatus === '1', 100_000);
    expect(await statusOf(survivor, videoId)).toBe(1);
    // Taken up by the survivor, not before the lease ran out.
    const resumed = said([survivor], 'processing job resumed after an interruption', videoId);
    expect(resumed).toHaveLength(1);
    // The lease was renewed at most a third of it before the kill.
    expect(Date.parse((JSON.parse(resumed[0]!) as { time: string }).time) - killedAt).toBeGreaterThanOrEqual((LEASE_MS * 2) / 3 - 100);
    // The interrupted job started once on the survivor (the rungs' pass after the remux is a job of its own).
    const { jobId } = JSON.parse(resumed[0]!) as { jobId: number };
    const startedThere = said([survivor], 'processing job started', videoId).filter(
      (line) => (JSON.parse(line) as { jobId: number }).jobId === jobId,
    );
    expect(startedThere).toHaveLength(1);
    expect(receiver.received.filter((callback) => callback.fields.VideoId === videoId)).toHaveLength(1);

    // Started again on its DATA_DIR, the killed instance ends what its ledger names (the ffmpeg,
    // should it still run) and forgets it.
    const holderDir = dirs[instances.indexOf(holder)]!;
    expect(readdirSync(join(holderDir, 'processes'))).toContain(`${ffmpeg.pid}.json`);
    await start(holderDir);
    await waitUntil('the orphaned ffmpeg to end', 5_000, () => (isRunning(ffmpeg.pid) ? undefined : true));
    expect(readdirSync(join(holderDir, 'processes'))).toEqual([]);
  });
});

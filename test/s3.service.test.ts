import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ERRORS, Upload, type DataStore } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import type { S3Settings } from '../src/server/config';
import { Bucket } from '../src/server/storage/bucket';
import { VideoStatus } from '../src/shared/videoStatus';
import { bucketUploads } from '../src/server/upload/uploadFiles';
import { waitForLadder } from './support/ladder';
import { makeTestVideo } from './support/media';
import { startS3, type TestS3 } from './support/s3';
import { startTestService, TEST_APPS, type TestService } from './support/service';
import { startServiceProcess } from './support/serviceProcess';
import {
  errorLine,
  getPage,
  makeNoisyVideo,
  openUploader,
  pageQuery,
  registerVideo,
  resultCode,
  sha256,
  tusCreate,
  tusHead,
  tusPatch,
  uploadWithClient,
} from './uploadHelpers';

// The whole service with its files in S3 (real OpenStack Swift on loopback), the database on SQLite.
const MIB = 1024 * 1024;
const OPS_TOKEN = 'ops-token-0123456789abcdef';
let s3: TestS3;
let service: TestService;
let serviceEnv: Record<string, string>;
let bucket: string;
let bucketSettings: S3Settings;
let work: string;
let noisy: Buffer;
let clip: Buffer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-s3test-'));
  const [server, noisyFile, clipFile] = await Promise.all([
    startS3(),
    makeNoisyVideo(work),
    makeTestVideo(work, 'clip.mp4', { width: 640, height: 360, seconds: 2 }),
  ]);
  s3 = server;
  noisy = readFileSync(noisyFile);
  clip = readFileSync(clipFile);
  const settings = await s3.newBucket();
  bucket = settings.bucket;
  bucketSettings = settings;
  // Type-2 sources come from a server of the test's own on loopback.
  serviceEnv = { ...s3.env(settings), SOURCE_URL_ALLOW_PRIVATE: '1', OPS_TOKEN };
  service = await startTestService({ env: serviceEnv, config: { maxUploadBytesFlash: 8 * MIB } });
}, 120_000);
afterAll(async () => {
  await service?.stop(true);
  await s3?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function object(key: string): Promise<Buffer> {
  const reply = await s3.client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await reply.Body!.transformToByteArray());
}

async function keys(prefix: string): Promise<string[]> {
  const page = await s3.client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((entry) => entry.Key!).sort();
}

function scratchEntries(): string[] {
  try {
    return readdirSync(join(service.dataDir, 'scratch'));
  } catch {
    return [];
  }
}

async function statusOf(videoId: string, wanted: readonly VideoStatus[]): Promise<VideoStatus> {
  for (let tries = 0; tries < 600; tries++) {
    const status = (await service.context.stores.videos.get(videoId))!.status;
    if (wanted.includes(status)) return status;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  return (await service.context.stores.videos.get(videoId))!.status;
}

describe('uploads in S3', () => {
  it('resumes an interrupted upload from the offset the bucket holds and stores it byte for byte', async () => {
    const videoId = await registerVideo(service);
    const first = await openUploader(service, videoId, { needHandleSepcial: 'true' });
    const created = await tusCreate(first.tusEndpoint, first.ticket, noisy.length);
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const part = 1_500_000;
    expect((await tusPatch(url, first.ticket, 0, noisy.subarray(0, part))).status).toBe(204);
    expect((await tusHead(url, first.ticket)).headers.get('upload-offset')).toBe(String(part));

    const second = await openUploader(service, videoId, { needHandleSepcial: 'true' });
    expect(second.resume).toMatchObject({ uploadUrl: url, offset: part, size: noisy.length });
    await uploadWithClient(second, noisy, url);
    const uploadId = url.split('/').pop()!;
    // The multipart upload was completed at the source's key: one object of the upload's size, no copy.
    expect(sha256(await object(`media/${videoId}/source.mp4`))).toBe(sha256(noisy));
    expect(await keys(uploadId)).toEqual([`${uploadId}.info`]);
    expect(readdirSync(service.dataDir)).not.toContain('uploads');
    // needHandleSepcial: the source itself, byte for byte, becomes the one play file.
    expect(await statusOf(videoId, [VideoStatus.Normal, VideoStatus.TranscodingFailed])).toBe(VideoStatus.Normal);
    expect(sha256(await object(`media/${videoId}/original.mp4`))).toBe(sha256(noisy));
  });

  it('discards an upload on tus DELETE or a replacing creation, and refuses one over the size limit', async () => {
    const boot = await openUploader(service, await registerVideo(service));
    const url = (await tusCreate(boot.tusEndpoint, boot.ticket, 2000)).headers.get('location')!;
    await tusPatch(url, boot.ticket, 0, noisy.subarray(0, 1000));
    const uploadId = url.split('/').pop()!;
    expect(await keys(uploadId)).toContain(`${uploadId}.info`);
    const deleted = await fetch(url, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', [TICKET_HEADER]: boot.ticket } });
    expect(deleted.status).toBe(204);
    expect(await keys(uploadId)).toEqual([]);
    // A new creation for the video replaces its unfinished upload, objects and all.
    const first = (await tusCreate(boot.tusEndpoint, boot.ticket, 2000)).headers.get('location')!;
    await tusPatch(first, boot.ticket, 0, noisy.subarray(0, 1000));
    expect((await tusCreate(boot.tusEndpoint, boot.ticket, 2000)).status).toBe(201);
    expect(await keys(first.split('/').pop()!)).toEqual([]);
    const over = await tusCreate(boot.tusEndpoint, boot.ticket, 8 * MIB + 1);
    expect([over.status, resultCode(over.body)]).toEqual([413, '112']);
  });
});

describe('two instances’ upload stores on one bucket', () => {
  // Each instance has a store of its own; the cross-instance lock keeps their calls on one upload
  // apart, so these calls come one after the other as the PATCHes of a balanced upload would.
  const newId = () => randomBytes(16).toString('hex');
  /** The reads each instance's store made of the bucket, as `<command> <key>`. */
  const reads = new Map<DataStore, string[]>();
  const instance = () => {
    const bucket = new Bucket(bucketSettings);
    const store = bucketUploads(bucket, { concurrency: 4, partMemoryBytes: 0, deferredMaxBytes: 0, alone: false }).store;
    const seen: string[] = [];
    reads.set(store, seen);
    bucket.client.middlewareStack.add(
      (next, context) => (args) => {
        const name = (context.commandName ?? '').replace(/Command$/, '');
        if (['GetObject', 'HeadObject', 'ListParts'].includes(name)) seen.push(`${name} ${(args.input as { Key?: string }).Key}`);
        return next(args);
      },
      { step: 'initialize', name: 'readRecorder' },
    );
    return store;
  };
  const instances = () => [instance(), instance()] as const;

  it('take turns writing one upload: each sees the other’s offset, and the object ends byte for byte', async () => {
    const [one, two] = instances();
    const bytes = randomBytes(7 * MIB);
    const id = newId();
    await one.create(new Upload({ id, size: bytes.length, offset: 0 }));
    // 3 MiB stay an incomplete part; 6 MiB make the first part; the last MiB finishes the upload.
    const turns = [
      [one, 0, 3 * MIB],
      [two, 3 * MIB, 6 * MIB],
      [one, 6 * MIB, 7 * MIB],
    ] as const;
    for (const [writer, from, to] of turns) {
      reads.get(writer)!.length = 0;
      expect(await writer.write(Readable.from([bytes.subarray(from, to)]), id, from)).toBe(to);
      // The other instance may have written since: ListParts and `.part` are read again, not
      // `.info` (each instance read it once, when it first looked at the upload).
      expect(reads.get(writer)!.sort()).toEqual([`GetObject ${id}.part`, `ListParts ${id}`]);
      for (const reader of [one, two]) expect((await reader.getUpload(id)).offset).toBe(to);
    }
    expect(sha256(await object(id))).toBe(sha256(bytes));
  });

  it('remember no upload state between calls: one removed through the other instance is gone on this one', async () => {
    const [one, two] = instances();
    const id = newId();
    await one.create(new Upload({ id, size: 2 * MIB, offset: 0 }));
    await one.write(Readable.from([randomBytes(MIB)]), id, 0);
    expect((await one.getUpload(id)).offset).toBe(MIB);
    await two.remove(id);
    // The record this instance keeps would, its multipart upload gone, call it complete; `.info`
    // is read again before that, and is gone.
    await expect(one.getUpload(id)).rejects.toBe(ERRORS.FILE_NOT_FOUND);
  });
});

describe('processing with files in S3', () => {
  it('transcodes an uploaded video into play files and pictures in the bucket, served with Range', async () => {
    const videoId = await registerVideo(service);
    await uploadWithClient(await openUploader(service, videoId), clip);
    expect(await statusOf(videoId, [VideoStatus.Normal, VideoStatus.TranscodingFailed])).toBe(VideoStatus.Normal);
    // The H.264 clip reaches 1 with its remux; its rungs follow, each in scratch space of its own.
    await waitForLadder(service.db, videoId);
    const stored = await keys(`media/${videoId}/`);
    const playFiles = await service.context.stores.playFiles.forVideo(videoId);
    expect(playFiles.map((file) => file.label)).toEqual(['360P', '240P']);
    // The remux the rungs replaced stays in the bucket for REMUX_GRACE_S (a player may still read it).
    expect(stored).toContain(`media/${videoId}/original.mp4`);
    for (const play of playFiles) expect(stored).toContain(`media/${videoId}/${play.file}`);
    expect(stored).toContain(`media/${videoId}/poster.jpg`);
    expect(stored).toContain(`media/${videoId}/poster-t2.jpg`);
    expect(readdirSync(service.dataDir)).not.toContain('media');
    expect(scratchEntries()).toEqual([]);

    const play = playFiles[0]!.file;
    const whole = await object(`media/${videoId}/${play}`);
    const ranged = await fetch(`${service.address}/Media/${videoId}/${play}`, { headers: { Range: 'bytes=100-1099' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${whole.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(100, 1100))).toBe(true);
    const poster = await fetch(`${service.address}/Media/${videoId}/poster.jpg?t=2`);
    expect(poster.status).toBe(200);
    expect(Buffer.from(await poster.arrayBuffer()).equals(await object(`media/${videoId}/poster-t2.jpg`))).toBe(true);
  });

  it('leaves the scratch space empty after a failed transcode', async () => {
    const videoId = await registerVideo(service);
    await uploadWithClient(await openUploader(service, videoId), Buffer.alloc(300_000, 7));
    expect(await statusOf(videoId, [VideoStatus.Normal, VideoStatus.TranscodingFailed])).toBe(VideoStatus.TranscodingFailed);
    expect(scratchEntries()).toEqual([]);
    expect(await keys(`media/${videoId}/`)).toEqual([`media/${videoId}/source.mp4`]);
  });

  it('empties the scratch space a crash left behind at the next start, and removes uploads no row names', async () => {
    const dataDir = service.dataDir;
    const boot = await openUploader(service, await registerVideo(service));
    const stray = (await tusCreate(boot.tusEndpoint, boot.ticket, 5000)).headers.get('location')!.split('/').pop()!;
    await tusPatch(`${boot.tusEndpoint}/${stray}`, boot.ticket, 0, noisy.subarray(0, 1000));
    // As a crash between replacing an upload's row and removing its bytes would leave it.
    await service.db.deleteFrom('uploads').where('id', '=', stray).execute();
    expect(await keys(stray)).not.toEqual([]);
    await service.stop();
    mkdirSync(join(dataDir, 'scratch', 'cut-off-transcode', 'out'), { recursive: true });
    writeFileSync(join(dataDir, 'scratch', 'cut-off-transcode', 'out', '720p.mp4'), 'half a rendition');
    service = await startTestService({ dataDir, env: serviceEnv, config: { maxUploadBytesFlash: 8 * MIB } });
    expect(scratchEntries()).toEqual([]);
    expect(await keys(stray)).toEqual([]);
  });
});

describe('a bucket lost while the service runs', () => {
  it('answers 503 with code 115, names the bucket only to the operator, and recovers when it is back', async () => {
    const videoId = await registerVideo(service);
    await uploadWithClient(await openUploader(service, videoId), clip);
    expect(await statusOf(videoId, [VideoStatus.Normal, VideoStatus.TranscodingFailed])).toBe(VideoStatus.Normal);
    await waitForLadder(service.db, videoId);
    const play = (await service.context.stores.playFiles.forVideo(videoId))[0]!.file;
    const media = `${service.address}/Media/${videoId}/${play}`;
    const other = await registerVideo(service);
    const boot = await openUploader(service, other);
    const source = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'video/mp4' }).end(clip));
    await new Promise<void>((listening) => source.listen(0, '127.0.0.1', listening));
    let remote = '';
    const midway = await openUploader(service, await registerVideo(service));
    const midwayUrl = (await tusCreate(midway.tusEndpoint, midway.ticket, noisy.length)).headers.get('location')!;
    expect((await tusPatch(midwayUrl, midway.ticket, 0, noisy.subarray(0, 1_000_000))).status).toBe(204);

    // What a browser or anyone without OPS_TOKEN may read names neither the bucket nor its endpoint.
    const endpoint = new URL(serviceEnv.S3_ENDPOINT!).host;
    const expectNoInfrastructure = (text: string) => {
      expect(text).not.toContain(bucket);
      expect(text).not.toContain(endpoint);
    };
    await s3.outage(async () => {
      const served = await fetch(media);
      const servedText = await served.text();
      expect([served.status, JSON.parse(servedText).AuthMsg.ResultCode]).toEqual([503, '115']);
      expectNoInfrastructure(servedText);
      const created = await tusCreate(boot.tusEndpoint, boot.ticket, 1000);
      expect([created.status, resultCode(created.body)]).toEqual([503, '115']);
      expectNoInfrastructure(created.body);
      // An upload under way: its offset is not reported as gone (404), nor its bytes taken.
      expect((await tusHead(midwayUrl, midway.ticket)).status).toBe(503);
      const patched = await tusPatch(midwayUrl, midway.ticket, 1_000_000, noisy.subarray(1_000_000, 2_000_000));
      expect([patched.status, resultCode(patched.body)]).toEqual([503, '115']);
      expectNoInfrastructure(patched.body);
      // The upload page of the video whose upload is under way must read its offset from the bucket.
      const page = await getPage(service, pageQuery(service, midway.videoId));
      expect(errorLine(page.html)).toBe(
        'ErrorCode : 115, ErrorMessage : Storage Unavailable: the S3 bucket cannot be reached now; try again later',
      );
      expectNoInfrastructure(page.html);
      const ready = await fetch(`${service.address}/readyz`);
      const readyText = await ready.text();
      expect([ready.status, JSON.parse(readyText).checks]).toEqual([503, { database: 'ok', storage: 'failing', ffmpeg: 'ok' }]);
      expectNoInfrastructure(readyText);
      const detailed = await fetch(`${service.address}/readyz`, { headers: { Authorization: `Bearer ${OPS_TOKEN}` } });
      expect(detailed.status).toBe(503);
      expect((await detailed.json()).checks.storage).toContain(`S3_BUCKET "${bucket}" at ${serviceEnv.S3_ENDPOINT}`);
      // Nothing half-written: the refused creation left no upload row behind.
      expect(await service.context.stores.uploads.forVideo(other)).toBeUndefined();

      // A download whose source cannot be stored goes back to the queue instead of failing the video.
      const registered = await service.post({
        ...service.auth(),
        VideoTitle: 'remote',
        SourceFileGetType: '2',
        SourceFilePath: `http://127.0.0.1:${(source.address() as { port: number }).port}/clip.mp4`,
      });
      remote = registered.body.VideoId;
      const attempted = () =>
        service.db
          .selectFrom('jobs')
          .select(['attempts', 'state'])
          .where('video_id', '=', remote)
          .where('kind', '=', 'download')
          .executeTakeFirstOrThrow();
      let seen = await attempted();
      for (let tries = 0; tries < 100 && !(seen.attempts >= 1 && seen.state === 'queued'); tries++) {
        await new Promise((wake) => setTimeout(wake, 100));
        seen = await attempted();
      }
      expect(seen).toEqual({ attempts: 1, state: 'queued' });
      expect((await service.context.stores.videos.get(remote))!.status).toBe(VideoStatus.WaitingForDownload);
    });

    const served = await fetch(media, { headers: { Range: 'bytes=0-9' } });
    expect(served.status).toBe(206);
    expect((await tusHead(midwayUrl, midway.ticket)).headers.get('upload-offset')).toBe('1000000');
    expect((await tusPatch(midwayUrl, midway.ticket, 1_000_000, noisy.subarray(1_000_000))).status).toBe(204);
    expect(sha256(await object(`media/${midway.videoId}/source.mp4`))).toBe(sha256(noisy));
    expect((await fetch(`${service.address}/readyz`)).status).toBe(200);
    await uploadWithClient(boot, clip);
    expect(await statusOf(other, [VideoStatus.Normal, VideoStatus.TranscodingFailed])).toBe(VideoStatus.Normal);
    expect(await statusOf(remote, [VideoStatus.Normal, VideoStatus.DownloadFailed, VideoStatus.TranscodingFailed])).toBe(
      VideoStatus.Normal,
    );
    expect(sha256(await object(`media/${remote}/source.mp4`))).toBe(sha256(clip));
    source.close();
  }, 60_000);
});

describe('abandoned uploads', () => {
  it('aborts the multipart upload of one left longer than a ticket’s life, and removes its record and row', async () => {
    const settings = await s3.newBucket();
    const dataDir = mkdtempSync(join(work, 'abandoned-'));
    const env = { ...s3.env(settings), SOURCE_URL_ALLOW_PRIVATE: '1' };
    const first = await startTestService({ dataDir, env });
    const videoId = await registerVideo(first);
    const boot = await openUploader(first, videoId);
    const url = (await tusCreate(boot.tusEndpoint, boot.ticket, 12 * MIB)).headers.get('location')!;
    expect((await tusPatch(url, boot.ticket, 0, randomBytes(6 * MIB))).status).toBe(204);
    const uploadId = url.split('/').pop()!;
    const openUploads = async () =>
      (await s3.client().send(new ListMultipartUploadsCommand({ Bucket: settings.bucket }))).Uploads?.length ?? 0;
    expect(await openUploads()).toBe(1);
    await first.stop();
    // A day and an hour later (the ticket lives a day): the next start finds it given up.
    const later = await startTestService({ dataDir, env, now: () => Date.now() + 25 * 60 * 60 * 1000 });
    try {
      expect(await openUploads()).toBe(0);
      const left = await s3.client().send(new ListObjectsV2Command({ Bucket: settings.bucket }));
      expect(left.Contents ?? []).toEqual([]);
      expect(await later.context.stores.uploads.get(uploadId)).toBeUndefined();
      expect((await later.context.stores.videos.get(videoId))!.status).toBe(VideoStatus.NotUploaded);
    } finally {
      await later.stop(true);
    }
  }, 60_000);
});

describe('start-up', () => {
  it('exits with one line naming the bucket when its endpoint cannot be reached', async () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const appsFile = join(dataDir, 'apps.json');
    writeFileSync(appsFile, JSON.stringify(TEST_APPS));
    const settings = { ...(await s3.newBucket()), endpoint: 'http://127.0.0.1:9' };
    const child = startServiceProcess({ PORT: '0', DATA_DIR: dataDir, APPS_FILE: appsFile, ...s3.env(settings) });
    expect(await child.exit).toBe(1);
    expect(child.lines).toHaveLength(1);
    expect(child.lines[0]).toContain(`S3_BUCKET \\"${settings.bucket}\\" at http://127.0.0.1:9 cannot be reached (ECONNREFUSED)`);
    expect(child.lines[0]).not.toContain('testing');
  }, 30_000);
});

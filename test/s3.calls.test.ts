import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { VideoStatus } from '../src/shared/videoStatus';
import { startS3, type TestS3 } from './support/s3';
import { startS3Proxy, type S3Call, type S3Proxy } from './support/s3Proxy';
import { startTestService, type TestService } from './support/service';
import { openUploader, registerVideo, resultCode, sha256, tusCreate, tusCreateDeferred, tusHead, tusPatch } from './uploadHelpers';

// What the tus endpoint asks of the bucket, counted on the wire by a recording proxy in front of a
// real Swift with s3api: reads per PATCH, calls at the finish, parts in flight, temporary space.
const MIB = 1024 * 1024;
const PART = 8 * MIB;
const CONCURRENCY = 2;
// Memory for one part: an upload's first part takes it, the others wait in files.
const PART_MEMORY = PART;
let s3: TestS3;
let proxy: S3Proxy;
let service: TestService;
let bucket: string;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-s3calls-'));
  s3 = await startS3();
  const settings = await s3.newBucket();
  bucket = settings.bucket;
  proxy = await startS3Proxy(settings.endpoint!);
  service = await startTestService({
    env: {
      ...s3.env({ ...settings, endpoint: proxy.endpoint }),
      S3_PART_CONCURRENCY: String(CONCURRENCY),
      S3_PART_MEMORY_BYTES: String(PART_MEMORY),
    },
    config: { maxUploadBytesFlash: 256 * MIB },
  });
}, 120_000);
afterAll(async () => {
  await service?.stop(true);
  await proxy?.close();
  await s3?.stop();
  rmSync(work, { recursive: true, force: true });
});

const READS = new Set(['GetObject', 'HeadObject', 'ListParts']);
const describeCalls = (calls: S3Call[]) => calls.map((call) => `${call.op} ${call.key}`);
/**
 * What each PATCH of an upload cut at 3 MiB, 11–12 MiB and its end reads, the service being alone
 * on its bucket: nothing but the bytes of the `.part` the PATCH before left (that PATCH's state is
 * kept). Instances on one database read ListParts and `.part` (and `.info` once) per PATCH
 * (test/s3.service.test.ts); tusd's S3 store reads more (docs/storage.md).
 */
const STATE_READS = (uploadId: string) => [[], [`GetObject ${uploadId}.part`], [`GetObject ${uploadId}.part`]];
/** The calls after an upload's last part: its one finishing call, and the `.part` whose bytes the PATCH took going. */
const FINISH = (uploadId: string, source: string) => [`CompleteMultipartUpload ${source}`, `DeleteObject ${uploadId}.part`];

async function objectsIn(prefix = ''): Promise<{ key: string; size: number }[]> {
  const page = await s3.client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((entry) => ({ key: entry.Key!, size: entry.Size ?? 0 }));
}

async function openMultipartUploads(): Promise<number> {
  return (await s3.client().send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads?.length ?? 0;
}

/**
 * A PATCH whose body is sent 1 MiB at a time as the service reads it; `before(at)` runs before each
 * MiB (and at the end). Without `declared` the body is chunked (no Content-Length); with it, the
 * request says `declared` bytes and `signal` may cut it short.
 */
async function streamedPatch(
  url: string,
  ticket: string,
  offset: number,
  bytes: Buffer,
  before: (at: number) => Promise<void>,
  { declared, signal }: { declared?: number; signal?: AbortSignal } = {},
) {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await before(at);
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.subarray(at, at + MIB));
      at += MIB;
    },
  });
  const reply = await fetch(url, {
    method: 'PATCH',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
      [TICKET_HEADER]: ticket,
      ...(declared === undefined ? {} : { 'Content-Length': String(declared) }),
    },
    body,
    duplex: 'half',
    signal,
  } as RequestInit);
  return { status: reply.status, body: await reply.text() };
}

/**
 * PATCHes `bytes` cut at `cuts` (offsets, first 0, last the length), each answered 204 with its
 * end as the offset; `lastHeaders` go on the last. Returns the S3 calls each PATCH made.
 */
async function patchInPieces(url: string, ticket: string, bytes: Buffer, cuts: number[], lastHeaders: Record<string, string> = {}) {
  const perPatch: S3Call[][] = [];
  for (let index = 0; index + 1 < cuts.length; index++) {
    const before = proxy.calls.length;
    const piece = bytes.subarray(cuts[index], cuts[index + 1]);
    const reply = await tusPatch(url, ticket, cuts[index]!, piece, index + 2 === cuts.length ? lastHeaders : {});
    expect(reply.status).toBe(204);
    expect(reply.headers.get('upload-offset')).toBe(String(cuts[index + 1]));
    perPatch.push(proxy.calls.slice(before));
  }
  return perPatch;
}

describe('S3 calls of an upload', () => {
  it('reads no more than a waiting `.part` per PATCH, and finishes with one call, copying nothing', async () => {
    const bytes = randomBytes(20 * MIB + 1000);
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const url = (await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length)).headers.get('location')!;
    const uploadId = url.split('/').pop()!;
    const source = `media/${videoId}/source.mp4`;
    // 3 MiB wait in `.part`; the next PATCH takes them into its first part and leaves 3 MiB again;
    // the last sends one whole part and the short final one, then completes.
    const perPatch = await patchInPieces(url, boot.ticket, bytes, [0, 3 * MIB, 11 * MIB, bytes.length]);

    expect(perPatch.map((calls) => describeCalls(calls.filter((call) => READS.has(call.op))))).toEqual(STATE_READS(uploadId));
    const last = perPatch.at(-1)!;
    const lastPartEnd = Math.max(...last.filter((call) => call.op === 'UploadPart').map((call) => call.end!));
    expect(describeCalls(last.filter((call) => call.start >= lastPartEnd)).sort()).toEqual(FINISH(uploadId, source));
    expect(proxy.calls.filter((call) => call.op === 'CopyObject' || call.op === 'UploadPartCopy')).toEqual([]);

    expect((await service.context.stores.videos.get(videoId))!.status).not.toBe(VideoStatus.NotUploaded);
    const stored = await s3.client().send(new GetObjectCommand({ Bucket: bucket, Key: source }));
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(bytes));
    // One object of the upload's size, its small record beside it, no multipart upload left open.
    expect(await objectsIn(uploadId)).toEqual([{ key: `${uploadId}.info`, size: expect.any(Number) }]);
    expect((await objectsIn()).filter((object) => object.size >= bytes.length)).toEqual([{ key: source, size: bytes.length }]);
    expect(await openMultipartUploads()).toBe(0);
  });

  it('cuts an upload of deferred length into 8 MiB parts, keeps short stretches in `.part`, and finishes on the PATCH that declares it', async () => {
    const bytes = randomBytes(19 * MIB + 500);
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const url = (await tusCreateDeferred(boot.tusEndpoint, boot.ticket)).headers.get('location')!;
    const uploadId = url.split('/').pop()!;
    const source = `media/${videoId}/source.webm`;
    // Pieces as a recording sends them: 3 MiB wait in `.part`, 9 MiB more make one part and leave
    // 4 MiB; the last piece declares the length and ends with a short final part.
    const perPatch = await patchInPieces(url, boot.ticket, bytes, [0, 3 * MIB, 12 * MIB, bytes.length], {
      'Upload-Length': String(bytes.length),
    });
    expect(perPatch.map((calls) => describeCalls(calls.filter((call) => READS.has(call.op))))).toEqual(STATE_READS(uploadId));
    const [first, second, last] = perPatch as [S3Call[], S3Call[], S3Call[]];
    expect(describeCalls(first.filter((call) => !READS.has(call.op)))).toEqual([`PutObject ${uploadId}.part`]);
    expect(second.filter((call) => call.op === 'UploadPart').map((call) => call.bytes)).toEqual([PART]);
    // The declared length is written to `.info` before the bytes; the finish is one call.
    expect(describeCalls(last.filter((call) => call.op === 'PutObject'))).toEqual([`PutObject ${uploadId}.info`]);
    const parts = last.filter((call) => call.op === 'UploadPart');
    expect(parts.map((call) => call.bytes).sort((a, b) => b - a)).toEqual([PART, bytes.length - 2 * PART]);
    const lastPartEnd = Math.max(...parts.map((call) => call.end!));
    expect(describeCalls(last.filter((call) => call.start >= lastPartEnd)).sort()).toEqual(FINISH(uploadId, source));

    const stored = await s3.client().send(new GetObjectCommand({ Bucket: bucket, Key: source }));
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(bytes));
    expect(await objectsIn(uploadId)).toEqual([{ key: `${uploadId}.info`, size: expect.any(Number) }]);
    expect(await openMultipartUploads()).toBe(0);
  });

  it('sends parts while the PATCH still arrives, at most S3_PART_CONCURRENCY at once, the parts that find S3_PART_MEMORY_BYTES full in bounded temporary space', async () => {
    const size = 48 * MIB;
    const bytes = randomBytes(size);
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const url = (await tusCreate(boot.tusEndpoint, boot.ticket, size)).headers.get('location')!;
    // A slow bucket: were reading not held back, parts would pile up in flight, in memory and on disk.
    proxy.slow((call) => call.op === 'UploadPart', 400);
    const before = proxy.calls.length;
    let peakTemp = 0;
    const sampler = setInterval(() => {
      let total = 0;
      for (const name of readdirSync(tmpdir()))
        if (name.startsWith('ovu-part-'))
          try {
            total += statSync(join(tmpdir(), name)).size;
          } catch {
            // sent and removed meanwhile
          }
      peakTemp = Math.max(peakTemp, total);
    }, 20);
    let bodySent = Infinity;
    const reply = await streamedPatch(url, boot.ticket, 0, bytes, async (at) => {
      if (at === size) bodySent = performance.now();
    });
    clearInterval(sampler);
    expect(reply.status).toBe(204);
    const parts = proxy.calls.slice(before).filter((call) => call.op === 'UploadPart');
    expect(parts).toHaveLength(size / PART);
    expect(proxy.peakInFlight('UploadPart')).toBe(CONCURRENCY);
    expect(Math.min(...parts.map((call) => call.start))).toBeLessThan(bodySent);
    // At most CONCURRENCY + 1 parts are held, one of them in memory.
    expect(peakTemp).toBeGreaterThan(0);
    expect(peakTemp).toBeLessThanOrEqual((CONCURRENCY + 1) * PART - PART_MEMORY);
    expect((await objectsIn(`media/${videoId}/`)).map((object) => object.size)).toContain(size);
  }, 60_000);
});

describe('a PATCH of declared length', () => {
  it('sends each part as its bytes arrive, and one cut short keeps the bytes that arrived in `.part`', async () => {
    const bytes = randomBytes(3 * PART);
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const url = (await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length)).headers.get('location')!;
    const before = proxy.calls.length;
    const sentAt = new Map<number, number>();
    const paced = async (at: number) => {
      sentAt.set(at, performance.now());
      await new Promise((wake) => setTimeout(wake, 100));
    };
    const first = await streamedPatch(url, boot.ticket, 0, bytes.subarray(0, 2 * PART), paced, { declared: 2 * PART });
    expect(first.status).toBe(204);
    // Each part's UploadPart is under way while its bytes still come in (4 of its 8 MiB at most).
    const parts = proxy.calls.slice(before).filter((call) => call.op === 'UploadPart');
    expect(parts.map((call) => call.start < sentAt.get(4 * MIB)!)).toEqual([true, false]);
    expect(parts[1]!.start).toBeLessThan(sentAt.get(PART + 4 * MIB)!);

    // The client goes away 3 MiB into an 8 MiB PATCH: the part's UploadPart is dropped (S3 keeps no
    // part of a call cut short), and the bytes that arrived wait in `.part`, counted, as tus wants.
    const cut = new AbortController();
    const broken = streamedPatch(
      url,
      boot.ticket,
      2 * PART,
      bytes.subarray(2 * PART),
      async (at) => {
        if (at === 3 * MIB) cut.abort();
      },
      { declared: PART, signal: cut.signal },
    );
    await expect(broken).rejects.toThrow();
    let offset = 0;
    const held = async () => (offset = Number((await tusHead(url, boot.ticket)).headers.get('upload-offset')));
    await expect.poll(held, { timeout: 10_000 }).toBeGreaterThan(2 * PART);
    expect(offset).toBeLessThanOrEqual(2 * PART + 3 * MIB);
    const tail = await s3.client().send(new HeadObjectCommand({ Bucket: bucket, Key: `${url.split('/').pop()}.part` }));
    expect(tail.ContentLength).toBe(offset - 2 * PART);
    expect((await tusPatch(url, boot.ticket, offset, bytes.subarray(offset))).status).toBe(204);
    const stored = await s3.client().send(new GetObjectCommand({ Bucket: bucket, Key: `media/${videoId}/source.mp4` }));
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(bytes));
  }, 60_000);
});

describe('a bucket lost mid-PATCH', () => {
  it('answers 503 / 115, tells the offset the bucket holds, and takes the rest once it is back', async () => {
    // Straight to Swift: a refused connection is what a client of a lost bucket meets.
    const direct = await startTestService({
      env: { ...s3.env(await s3.newBucket()), S3_PART_CONCURRENCY: String(CONCURRENCY) },
      config: { maxUploadBytesFlash: 256 * MIB },
    });
    try {
      const bytes = randomBytes(40 * MIB);
      const videoId = await registerVideo(direct);
      const boot = await openUploader(direct, videoId);
      const url = (await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length)).headers.get('location')!;
      let cut: (() => void) | undefined;
      const down = new Promise<void>((resolve) => (cut = resolve));
      let patched: { status: number; body: string } | undefined;
      const patching = streamedPatch(url, boot.ticket, 0, bytes, async (at) => {
        // Half the body sent; the rest goes once the bucket is gone.
        if (at === 20 * MIB) await down;
      }).then((reply) => (patched = reply));
      await new Promise((wake) => setTimeout(wake, 1500));
      await s3.outage(async () => {
        cut!();
        await patching;
        expect([patched!.status, resultCode(patched!.body)]).toEqual([503, '115']);
        expect((await tusHead(url, boot.ticket)).status).toBe(503);
      });
      const offset = Number((await tusHead(url, boot.ticket)).headers.get('upload-offset'));
      // Whole parts sent before the bucket went: what S3 holds, and what the client resumes from.
      expect(offset % PART).toBe(0);
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThanOrEqual(20 * MIB);
      expect((await tusPatch(url, boot.ticket, offset, bytes.subarray(offset))).status).toBe(204);
      const stored = await s3
        .client()
        .send(new GetObjectCommand({ Bucket: direct.context.files.bucket!.name, Key: `media/${videoId}/source.mp4` }));
      expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(bytes));
    } finally {
      await direct.stop(true);
    }
  }, 90_000);
});

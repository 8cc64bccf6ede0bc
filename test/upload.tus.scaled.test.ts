import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { VideoStatus } from '../src/shared/videoStatus';
import { startTestService, type TestService } from './support/service';
import { storedMedia, storedUploadBytes, withFilesOf, writeUploadBytes } from './support/storage';
import {
  getPage,
  errorLine,
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

const MIB = 1024 * 1024;
const LIMIT = 8 * MIB;

let service: TestService;
let work: string;
let video: Buffer;
/** Moves the service's clock, to expire tickets without waiting a day. */
let skewMs = 0;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-upload-'));
  video = readFileSync(await makeNoisyVideo(work));
  service = await startTestService({ config: { maxUploadBytesFlash: LIMIT }, now: () => Date.now() + skewMs });
});
afterAll(async () => {
  await service.stop(true);
  rmSync(work, { recursive: true, force: true });
});

async function mediaFile(videoId: string, name: string): Promise<Buffer> {
  return (await storedMedia(service, videoId, name))!;
}

async function transcodeJobs(videoId: string): Promise<number> {
  return (await service.db.selectFrom('jobs').select('id').where('video_id', '=', videoId).where('kind', '=', 'transcode').execute())
    .length;
}

describe('the tus endpoint', () => {
  it('stores a multi-megabyte upload byte for byte, moves the video on and queues transcoding', async () => {
    expect(video.length).toBeGreaterThan(2 * MIB);
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId, { needHandleSepcial: 'true' });
    const run = await uploadWithClient(boot, video);
    expect(run.patchOffsets.length).toBeGreaterThan(2);
    expect(run.url).toMatch(new RegExp(`^${service.address}/UploadWidget/files/[0-9a-f]{32}$`));
    expect(run.url).not.toContain(videoId);
    expect(sha256(await mediaFile(videoId, 'source.mp4'))).toBe(sha256(video));
    const stored = (await service.context.stores.videos.get(videoId))!;
    expect(stored.status).not.toBe(VideoStatus.NotUploaded);
    expect(stored.sourceFile).toBe('source.mp4');
    expect(stored.needHandleSpecial).toBe(true);
    expect(await transcodeJobs(videoId)).toBe(1);
  });

  it('resumes an interrupted upload from the offset it holds, sending only the rest', async () => {
    const videoId = await registerVideo(service);
    const first = await openUploader(service, videoId);
    const created = await tusCreate(first.tusEndpoint, first.ticket, video.length, {
      filename: 'a.mp4',
      filetype: 'video/mp4',
      fingerprint: 'fp-a',
    });
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const part = 1_500_000;
    expect((await tusPatch(url, first.ticket, 0, video.subarray(0, part))).status).toBe(204);
    const head = await tusHead(url, first.ticket);
    expect(head.headers.get('upload-offset')).toBe(String(part));

    // A new page load (say, after a reload) offers the upload to resume.
    const second = await openUploader(service, videoId);
    expect(second.resume).toEqual({ uploadUrl: url, offset: part, size: video.length, fileName: 'a.mp4', fingerprint: 'fp-a' });
    const run = await uploadWithClient(second, video, second.resume!.uploadUrl);
    expect(run.patchOffsets[0]).toBe(part);
    expect(sha256(await mediaFile(videoId, 'source.mp4'))).toBe(sha256(video));
    expect((await service.context.stores.videos.get(videoId))!.status).not.toBe(VideoStatus.NotUploaded);
  });

  it('refuses a second file for a video that has one (107), on the endpoint and the page', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    await uploadWithClient(boot, video.subarray(0, 100_000));
    const again = await tusCreate(boot.tusEndpoint, boot.ticket, 1000);
    expect(again.status).toBe(409);
    expect(resultCode(again.body)).toBe('107');
    expect(errorLine((await getPage(service, pageQuery(service, videoId))).html)).toMatch(/^ErrorCode : 107, /);
  });

  it("names each reply's request, and lets the service's own origin read the name (X-Request-Id exposed)", async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const created = await tusCreate(boot.tusEndpoint, boot.ticket, 1000);
    const uploadUrl = created.headers.get('location')!;
    const head = await fetch(uploadUrl, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', [TICKET_HEADER]: boot.ticket, Origin: new URL(service.address).origin },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-request-id')).toMatch(/^\S+$/);
    expect(head.headers.get('access-control-expose-headers')?.split(/,\s*/)).toContain('X-Request-Id');
  });

  it("refuses an Upload-Length over the page's limit with 413 and code 112, and an empty file", async () => {
    const boot = await openUploader(service, await registerVideo(service));
    expect(boot.maxFileSize).toBe(LIMIT);
    const over = await tusCreate(boot.tusEndpoint, boot.ticket, LIMIT + 1);
    expect(over.status).toBe(413);
    expect(over.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(over.body)).toEqual({ AuthMsg: { ResultCode: '112', ResultMessage: `File Too Large: the limit is ${LIMIT} bytes` } });
    expect(resultCode((await tusCreate(boot.tusEndpoint, boot.ticket, 0)).body)).toBe('106');
    expect((await tusCreate(boot.tusEndpoint, boot.ticket, LIMIT)).status).toBe(201);
  });

  it("refuses every request without a genuine ticket for the upload's own video", async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const url = (await tusCreate(boot.tusEndpoint, boot.ticket, 1000)).headers.get('location')!;
    const other = await openUploader(service, await registerVideo(service));
    const [payload, signature] = boot.ticket.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${Buffer.from(JSON.stringify({ ...claims, max: LIMIT * 100 })).toString('base64url')}.${signature}`;

    const cases: [string | null, number, string][] = [
      [null, 400, '101'],
      [tampered, 403, '108'],
      [other.ticket, 403, '108'],
    ];
    for (const [ticket, status, code] of cases) {
      for (const reply of [await tusHead(url, ticket), await tusPatch(url, ticket, 0, video.subarray(0, 1000))]) {
        expect(reply.status).toBe(status);
        if (reply.body) expect(resultCode(reply.body)).toBe(code);
      }
    }
    expect((await tusCreate(boot.tusEndpoint, null, 1000)).status).toBe(400);
    expect(resultCode((await tusCreate(boot.tusEndpoint, tampered, 1000)).body)).toBe('108');
    expect((await tusHead(url, boot.ticket)).headers.get('upload-offset')).toBe('0');
  });

  it('refuses an expired ticket (103)', async () => {
    const boot = await openUploader(service, await registerVideo(service));
    skewMs = 24 * 3600 * 1000 + 1000;
    try {
      const reply = await tusCreate(boot.tusEndpoint, boot.ticket, 1000);
      expect(reply.status).toBe(401);
      expect(resultCode(reply.body)).toBe('103');
    } finally {
      skewMs = 0;
    }
  });

  it('never serves stored bytes back (GET is 405)', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const run = await uploadWithClient(boot, video.subarray(0, 50_000));
    for (const headers of [{}, { [TICKET_HEADER]: boot.ticket }] as Record<string, string>[]) {
      const res = await fetch(run.url, { headers });
      expect(res.status).toBe(405);
      expect(resultCode(await res.text())).toBe('111');
    }
  });

  it('keeps one upload per video: a new creation replaces the unfinished one', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const old = (await tusCreate(boot.tusEndpoint, boot.ticket, 5000)).headers.get('location')!;
    await tusPatch(old, boot.ticket, 0, video.subarray(0, 1000));
    expect(await storedUploadBytes(service, old.split('/').pop()!)).toBe(1000);
    const fresh = (await tusCreate(boot.tusEndpoint, boot.ticket, 6000)).headers.get('location')!;
    expect((await tusHead(old, boot.ticket)).status).toBe(404);
    expect((await openUploader(service, videoId)).resume).toMatchObject({ uploadUrl: fresh, offset: 0, size: 6000 });
    expect(await storedUploadBytes(service, old.split('/').pop()!)).toBe(0);
    // On disk, only the upload's files go, not the folder of all uploads.
    if (!service.context.files.bucket) expect(statSync(join(service.dataDir, 'uploads')).isDirectory()).toBe(true);
  });

  it('lets the page cancel an unfinished upload (DELETE), after which nothing is offered to resume', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const url = (await tusCreate(boot.tusEndpoint, boot.ticket, 5000)).headers.get('location')!;
    const res = await fetch(url, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', [TICKET_HEADER]: boot.ticket } });
    expect(res.status).toBe(204);
    expect((await openUploader(service, videoId)).resume).toBeNull();
  });

  it('keeps its ticket key in the database, not in a file of DATA_DIR', async () => {
    expect(existsSync(join(service.dataDir, 'ticket.key'))).toBe(false);
    const row = await service.db.selectFrom('settings').select('value').where('name', '=', 'ticket_key').executeTakeFirstOrThrow();
    expect(row.value).toHaveLength(64);
  });
});

describe('start-up re-check', () => {
  it('finishes an upload whose last bytes were stored but whose finish never ran', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ovu-recheck-'));
    let first: TestService | undefined = await startTestService({ dataDir });
    let second: TestService | undefined;
    try {
      const videoId = await registerVideo(first);
      const boot = await openUploader(first, videoId);
      const url = (await tusCreate(boot.tusEndpoint, boot.ticket, video.length)).headers.get('location')!;
      const cut = video.length - 1000;
      expect((await tusPatch(url, boot.ticket, 0, video.subarray(0, cut))).status).toBe(204);
      await first.stop();
      first = undefined;
      // The process died after tus wrote the last bytes and before the finish hook ran.
      await withFilesOf(dataDir, (files) => writeUploadBytes(files, url.split('/').pop()!, cut, video.subarray(cut)));

      second = await startTestService({ dataDir });
      expect((await second.context.stores.videos.get(videoId))!.status).not.toBe(VideoStatus.NotUploaded);
      expect(sha256((await storedMedia(second, videoId, 'source.mp4'))!)).toBe(sha256(video));
      expect(errorLine((await getPage(second, pageQuery(second, videoId))).html)).toMatch(/^ErrorCode : 107, /);
    } finally {
      await first?.stop();
      await second?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

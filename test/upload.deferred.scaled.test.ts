/**
 * Uploads whose length is not known when they start (tus `Upload-Defer-Length`): a recording the
 * uploader sends while it records, declaring the length with its last PATCH. Uses a WebM that
 * Chromium's MediaRecorder recorded, whose header states no duration.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetVideoReply } from '../src/shared/apiReplies';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { probe } from './support/media';
import { recordInChromium } from './support/recording';
import { startTestService, type TestService } from './support/service';
import { storedMedia } from './support/storage';
import { openUploader, registerVideo, resultCode, sha256, tusCreateDeferred, tusHead, tusPatch } from './uploadHelpers';

const run = promisify(execFile);
const LIMIT = 8 * 1024 * 1024;
const RECORDED_SECONDS = 4;

let service: TestService;
let work: string;
let recording: Buffer;
/** The recording's length as ffmpeg finds it once it has rewritten the header (a remux measures every packet). */
let recordedLength: number;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-deferred-'));
  recording = await recordInChromium(RECORDED_SECONDS);
  writeFileSync(join(work, 'recorded.webm'), recording);
  await run('ffmpeg', ['-nostdin', '-v', 'error', '-i', join(work, 'recorded.webm'), '-c', 'copy', join(work, 'remuxed.webm')]);
  recordedLength = (await probe(join(work, 'remuxed.webm'))).duration;
  service = await startTestService({ config: { maxUploadBytesFlash: LIMIT } });
}, 60_000);
afterAll(async () => {
  await service?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

async function waitForStatus(videoId: string): Promise<GetVideoReply> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const query = new URLSearchParams({ ...service.auth(), Id: videoId });
    const reply = (await (await fetch(`${service.address}/Api/Video/Get?${query}`)).json()) as GetVideoReply;
    if ([1, 4, 7].includes(reply.Video.Status) || Date.now() > deadline) return reply;
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

describe('an upload with a deferred length', () => {
  it('takes a recording in pieces, learns its length from the last PATCH, and processing finds its duration', async () => {
    expect((await probe(join(work, 'recorded.webm'))).duration, 'MediaRecorder writes no duration').toBe(0);
    expect(recordedLength).toBeGreaterThan(RECORDED_SECONDS - 1);
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const created = await tusCreateDeferred(boot.tusEndpoint, boot.ticket);
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const cut = Math.floor(recording.length / 3);
    expect((await tusPatch(url, boot.ticket, 0, recording.subarray(0, cut))).status).toBe(204);
    const head = await tusHead(url, boot.ticket);
    expect(head.headers.get('upload-defer-length')).toBe('1');
    expect(head.headers.get('upload-offset')).toBe(String(cut));
    // Mid-recording, the page offers nothing to resume: the rest is only in the recording page.
    expect((await openUploader(service, videoId)).resume).toBeNull();
    const last = await tusPatch(url, boot.ticket, cut, recording.subarray(cut), { 'Upload-Length': String(recording.length) });
    expect(last.status).toBe(204);

    const reply = await waitForStatus(videoId);
    expect(reply.Video.Status).toBe(1);
    expect(Math.abs(Number(reply.Video.Duration) - recordedLength)).toBeLessThan(0.5);
    expect(sha256((await storedMedia(service, videoId, 'source.webm'))!)).toBe(sha256(recording));
    const row = await service.context.stores.uploads.forVideo(videoId);
    expect(row?.size, 'the real length replaces the reservation').toBe(recording.length);
  }, 120_000);

  it('refuses a malformed deferral (106), and a declared length over the limit (413, 112)', async () => {
    const boot = await openUploader(service, await registerVideo(service));
    expect(resultCode((await tusCreateDeferred(boot.tusEndpoint, boot.ticket, { 'Upload-Defer-Length': '2' })).body)).toBe('106');
    expect(resultCode((await tusCreateDeferred(boot.tusEndpoint, boot.ticket, { 'Upload-Length': '10' })).body)).toBe('106');
    expect(resultCode((await tusCreateDeferred(boot.tusEndpoint, boot.ticket, { 'Upload-Concat': 'partial' })).body)).toBe('106');
    const url = (await tusCreateDeferred(boot.tusEndpoint, boot.ticket)).headers.get('location')!;
    const over = await tusPatch(url, boot.ticket, 0, new Uint8Array(10), { 'Upload-Length': String(LIMIT + 1) });
    expect([over.status, resultCode(over.body)]).toEqual([413, '112']);
  });

  it('is dropped by a DELETE (a Retake) and leaves nothing behind', async () => {
    const videoId = await registerVideo(service);
    const boot = await openUploader(service, videoId);
    const url = (await tusCreateDeferred(boot.tusEndpoint, boot.ticket)).headers.get('location')!;
    expect((await tusPatch(url, boot.ticket, 0, recording.subarray(0, 1000))).status).toBe(204);
    const res = await fetch(url, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', [TICKET_HEADER]: boot.ticket } });
    expect(res.status).toBe(204);
    expect((await tusHead(url, boot.ticket)).status).toBe(404);
    expect(await service.context.stores.uploads.forVideo(videoId)).toBeUndefined();
  });
});

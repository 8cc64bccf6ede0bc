import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetVideoReply } from '../src/shared/apiReplies';
import { PICTURE_SIZES } from '../src/server/processing/pictures';
import { markSourceStored } from '../src/server/processing/pipeline';
import type { Video } from '../src/server/storage/videos';
import { waitForLadder } from './support/ladder';
import { makeTestVideo, pictureSize, probe } from './support/media';
import { startTestService, type TestService } from './support/service';
import { placeMedia } from './support/storage';

let work: string;
let hd: string; // 1280x720 with audio
let small: string; // 640x360 without audio
let service: TestService;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-media-'));
  [hd, small] = await Promise.all([
    makeTestVideo(work, 'hd.mp4', { width: 1280, height: 720 }),
    makeTestVideo(work, 'small.mp4', { width: 640, height: 360, audio: false }),
  ]);
  service = await startTestService();
}, 60_000);
afterAll(async () => {
  await service?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

async function register(target: TestService, fields: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${target.address}/Api/Video/Post`, {
    method: 'POST',
    body: new URLSearchParams({ ...target.auth(), VideoTitle: 'clip', SourceFileGetType: '1', ...fields }),
  });
  const body = await res.json();
  expect(body.AuthMsg.ResultCode).toBe('1');
  return body.VideoId as string;
}

/** What the upload does once the last byte is on disk: the source in the media folder, then the step 8 → 5. */
async function storeSource(
  target: TestService,
  videoId: string,
  file: string,
  needHandleSpecial = false,
  name = 'source.mp4',
): Promise<void> {
  await placeMedia(target, videoId, name, file);
  expect(await markSourceStored(target.context, videoId, name, { needHandleSpecial })).toBe(true);
}

async function waitForStatus(target: TestService, videoId: string, ends: readonly number[] = [1, 4, 7]): Promise<Video> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const video = (await target.context.stores.videos.get(videoId))!;
    if (ends.includes(video.status)) return video;
    if (Date.now() > deadline) throw new Error(`video ${videoId} still in status ${video.status}`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

async function getVideo(target: TestService, videoId: string): Promise<GetVideoReply> {
  const query = new URLSearchParams({ ...target.auth(), Id: videoId });
  return (await fetch(`${target.address}/Api/Video/Get?${query}`)).json() as Promise<GetVideoReply>;
}

async function bytesOf(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe('type 1: a stored source is transcoded to status 1, then its ladder completed', () => {
  let videoId: string;
  let reply: GetVideoReply;
  beforeAll(async () => {
    videoId = await register(service);
    await storeSource(service, videoId, hd);
    await waitForStatus(service, videoId);
    await waitForLadder(service.db, videoId);
    reply = await getVideo(service, videoId);
  }, 120_000);

  it('ends in status 1 with three renditions of 720p and below, best first', async () => {
    expect(reply.Video.Status).toBe(1);
    expect(reply.VideoPlayFile.map((file) => [file.BitrateLabel, file.Bitrate])).toEqual([
      ['720P', 2500],
      ['480P', 1000],
      ['360P', 600],
    ]);
    for (const [index, height] of [720, 480, 360].entries()) {
      const played = await probe(reply.VideoPlayFile[index]!.VideoURL);
      const video = played.streams.find((stream) => stream.codec_type === 'video')!;
      expect({ codec: video.codec_name, height: video.height, width: video.width }).toEqual({
        codec: 'h264',
        height,
        width: Math.floor((1280 * height) / 720 / 2) * 2,
      });
      expect(played.streams.find((stream) => stream.codec_type === 'audio')?.codec_name).toBe('aac');
    }
  });

  it('reports the duration in seconds', () => {
    expect(reply.Video.Duration).toBeGreaterThan(1.9);
    expect(reply.Video.Duration).toBeLessThan(2.2);
  });

  it('publishes the best file as PlayURL, the HLS master playlist as MobilePlayURL and the untouched source as DownloadURL', async () => {
    expect(reply.MediaSever.PlayURL).toBe(reply.VideoPlayFile[0]!.VideoURL);
    expect(reply.MediaSever.MobilePlayURL).toBe(reply.VideoPlayFile[0]!.VideoURL.replace(/[^/]+$/, 'master.m3u8'));
    const download = await bytesOf(reply.MediaSever.DownloadURL);
    expect(download.status).toBe(200);
    expect(download.body.equals(readFileSync(hd))).toBe(true);
  });

  it('serves the play files as video/mp4 with byte ranges', async () => {
    const url = reply.VideoPlayFile[0]!.VideoURL;
    const whole = await bytesOf(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Number(whole.headers.get('content-length'))).toBe(whole.body.length);

    const part = await bytesOf(url, { headers: { Range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${whole.body.length}`);
    expect(part.body.equals(whole.body.subarray(100, 1100))).toBe(true);

    const tail = await bytesOf(url, { headers: { Range: 'bytes=-500' } });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(whole.body.subarray(whole.body.length - 500))).toBe(true);

    const past = await bytesOf(url, { headers: { Range: `bytes=${whole.body.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${whole.body.length}`);

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(whole.body.length);

    const cached = await fetch(url, { headers: { 'If-None-Match': whole.headers.get('etag')! } });
    expect(cached.status).toBe(304);
  });

  it('PicSavePath is a 640-wide JPEG of the video, and ?t=2 … ?t=7 give exactly the sizes of the table', async () => {
    const poster = reply.Video.PicSavePath as string;
    const res = await fetch(poster);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(await pictureSize(poster)).toEqual({ width: 640, height: 360, codec: 'mjpeg' });
    for (const [n, size] of Object.entries(PICTURE_SIZES)) {
      expect(await pictureSize(`${poster}?t=${n}`)).toEqual({ ...size, codec: 'mjpeg' });
    }
  });

  it('refuses a picture size outside the table with 400 and code 106', async () => {
    for (const t of ['1', '8', '0', 'x', '22', '']) {
      const res = await fetch(`${reply.Video.PicSavePath}?t=${t}`);
      expect(res.status).toBe(400);
      expect((await res.json()).AuthMsg.ResultCode).toBe('106');
    }
  });

  it('never serves a file outside the video folder, nor one it did not publish', async () => {
    writeFileSync(join(work, 'extra.mp4'), 'not published');
    await placeMedia(service, videoId, 'extra.mp4', join(work, 'extra.mp4'));
    const base = `${service.address}/Media/${videoId}`;
    const attempts = [
      `${base}/..%2f..%2fservice.sqlite`,
      `${base}/%2e%2e%2f%2e%2e%2fservice.sqlite`,
      `${base}/..%5c..%5cservice.sqlite`,
      `${base}/%2fetc%2fpasswd`,
      `${base}/extra.mp4`,
      `${base}/.`,
      `${service.address}/Media/..%2f..%2f/service.sqlite`,
      `${service.address}/Media/${videoId}%2f..%2f..%2fservice.sqlite/x`,
      `${service.address}/Media/${videoId}/720p.mp4/extra`,
    ];
    for (const url of attempts) {
      const res = await bytesOf(url);
      expect(res.status, url).toBe(404);
      expect(res.body.toString('latin1')).not.toContain('SQLite format');
    }
    // fetch normalizes dot segments; a raw request line can still carry them.
    for (const path of [`/Media/${videoId}/../../service.sqlite`, '/Media//etc/passwd', `/Media/${videoId}//etc/passwd`]) {
      const status = await rawGetStatus(service.address, path);
      expect(status, path).not.toBe(200);
    }
  });
});

/** A request whose path is sent exactly as written. */
function rawGetStatus(address: string, path: string): Promise<number> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.once('error', reject);
    req.end();
  });
}

describe('other sources', () => {
  it('a 360p video without audio gets 360p and 240p renditions without audio', async () => {
    const videoId = await register(service);
    await storeSource(service, videoId, small);
    await waitForStatus(service, videoId);
    await waitForLadder(service.db, videoId);
    const reply = await getVideo(service, videoId);
    expect(reply.Video.Status).toBe(1);
    expect(reply.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['360P', '240P']);
    const played = await probe(reply.VideoPlayFile[1]!.VideoURL);
    expect(played.streams.map((stream) => [stream.codec_type, stream.height])).toEqual([['video', 240]]);
  });

  it('needHandleSepcial: the source, byte for byte, is the one play file', async () => {
    const videoId = await register(service);
    await storeSource(service, videoId, small, true);
    await waitForStatus(service, videoId);
    const reply = await getVideo(service, videoId);
    expect(reply.Video.Status).toBe(1);
    expect(reply.VideoPlayFile).toHaveLength(1);
    expect(reply.VideoPlayFile[0]!.BitrateLabel).toBe('Original');
    expect(reply.VideoPlayFile[0]!.Bitrate).toBeGreaterThan(0);
    const played = await bytesOf(reply.VideoPlayFile[0]!.VideoURL);
    expect(played.body.equals(readFileSync(small))).toBe(true);
    expect(await pictureSize(`${reply.Video.PicSavePath}?t=7`)).toEqual({ width: 420, height: 240, codec: 'mjpeg' });
  });

  it('a corrupt file ends in 7 with its reason and a queued callback; the next video still processes', async () => {
    const corrupt = join(work, 'corrupt.mp4');
    writeFileSync(corrupt, randomBytes(64 * 1024));
    const broken = await register(service);
    await storeSource(service, broken, corrupt);
    const failed = await waitForStatus(service, broken);
    expect(failed.status).toBe(7);
    expect(failed.statusReason).not.toBe('');
    const callbacks = await service.db.selectFrom('callbacks').select('video_status').where('video_id', '=', broken).execute();
    expect(callbacks).toEqual([{ video_status: 7 }]);
    expect((await getVideo(service, broken)).VideoPlayFile).toEqual([]);

    const next = await register(service);
    await storeSource(service, next, small);
    expect((await waitForStatus(service, next)).status).toBe(1);
  });

  it('serves nothing of a video that is not in status 1', async () => {
    const videoId = await register(service);
    await placeMedia(service, videoId, 'source.mp4', small);
    await service.db.updateTable('videos').set({ source_file: 'source.mp4' }).where('id', '=', videoId).execute();
    expect((await fetch(`${service.address}/Media/${videoId}/source.mp4`)).status).toBe(404);
  });
});

describe('type 2: downloaded from a loopback server', () => {
  let origin: Server;
  let downloading: TestService;
  beforeAll(async () => {
    origin = createServer((req, res) => {
      const body = readFileSync(small);
      res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': body.length }).end(body);
    });
    await new Promise<void>((listening) => origin.listen(0, '127.0.0.1', listening));
    downloading = await startTestService({ env: { SOURCE_URL_ALLOW_PRIVATE: '1' } });
  });
  afterAll(async () => {
    await downloading?.stop(true);
    origin?.close();
  });

  it('registration queues the download, which ends in status 1 with play files', async () => {
    const { port } = origin.address() as AddressInfo;
    const videoId = await register(downloading, { SourceFileGetType: '2', SourceFilePath: `http://127.0.0.1:${port}/clip.mp4` });
    const video = await waitForStatus(downloading, videoId);
    expect([video.status, video.statusReason]).toEqual([1, '']);
    await waitForLadder(downloading.db, videoId);
    const reply = await getVideo(downloading, videoId);
    expect(reply.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['360P', '240P']);
    expect((await bytesOf(reply.MediaSever.DownloadURL)).body.equals(readFileSync(small))).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { VideoStatus } from '../src/shared/videoStatus';
import { startTestService, type TestService } from './support/service';

// storageBytes counts a source the service downloaded (type 2) as it counts an uploaded one. The
// sources are random bytes, not video: each download is followed by a transcode that fails (7),
// which stores no rendition, so what the quota holds is the downloaded sources alone.
const SOURCE_BYTES = 6000;
const APPS: AppRecord[] = [
  // Room for one source and not two.
  { appId: 'roomy', appSecret: 'secret-of-roomy-012345678', quota: { storageBytes: SOURCE_BYTES + 4000 } },
  // Room for exactly one source.
  { appId: 'snug', appSecret: 'secret-of-snug-0123456789', quota: { storageBytes: SOURCE_BYTES } },
];

let service: TestService;
let sources: Server;
let sourceOrigin: string;
beforeAll(async () => {
  const body = randomBytes(SOURCE_BYTES);
  sources = createServer((req, res) => {
    // One source with Content-Length, one without (chunked), so the quota holds against both.
    if (req.url === '/chunked.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(body);
    } else res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((done) => sources.listen(0, '127.0.0.1', done));
  sourceOrigin = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
  service = await startTestService({ apps: APPS, env: { SOURCE_URL_ALLOW_PRIVATE: '1' } });
}, 60_000);
afterAll(async () => {
  await service?.stop(true);
  sources?.closeAllConnections();
  sources?.close();
});

async function postDownload(appId: string, file: string) {
  return service.post({
    ...service.auth(appId),
    VideoTitle: file,
    CreateUser: 'pat',
    SourceFileGetType: '2',
    SourceFilePath: `${sourceOrigin}/${file}`,
  });
}

/** The video once its download has ended (stored and on to transcoding, or failed). */
async function afterDownload(videoId: string) {
  const downloading: number[] = [VideoStatus.WaitingForDownload, VideoStatus.Downloading];
  for (let tries = 0; tries < 600; tries++) {
    const video = await service.context.stores.videos.get(videoId);
    if (video && !downloading.includes(video.status)) return video;
    await new Promise((wake) => setTimeout(wake, 50));
  }
  throw new Error(`video ${videoId} still downloading`);
}

describe('the storageBytes quota and downloaded sources', () => {
  it('fails a download that would pass the quota, with or without Content-Length, keeping nothing', async () => {
    const first = await postDownload('roomy', 'sized.bin');
    expect((await afterDownload(first.body.VideoId)).status).not.toBe(VideoStatus.DownloadFailed);

    for (const file of ['sized.bin', 'chunked.bin']) {
      const over = await postDownload('roomy', file);
      expect(over.body.AuthMsg.ResultCode).toBe('1');
      const video = await afterDownload(over.body.VideoId);
      expect(video.status).toBe(VideoStatus.DownloadFailed);
      expect(video.sourceFile).toBe('');
      expect(video.statusReason).toMatch(/^storage-quota: the source is larger than the 4000 bytes left in the app's storageBytes quota/);
    }
  }, 60_000);

  it('refuses new videos with 507/113 once downloaded sources fill the quota', async () => {
    const first = await postDownload('snug', 'chunked.bin');
    expect((await afterDownload(first.body.VideoId)).status).not.toBe(VideoStatus.DownloadFailed);

    const refused = await postDownload('snug', 'sized.bin');
    expect([refused.status, refused.body.AuthMsg.ResultCode]).toEqual([507, '113']);
  }, 60_000);
});

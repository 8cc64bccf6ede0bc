import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { IN_FLIGHT_IDLE_MS } from '../src/server/quota/quotas';
import { startTestService, type TestService } from './support/service';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import { getPage, jsonBlock, pageQuery, tusCreate, tusHead, tusPatch } from './uploadHelpers';

// An upload counts, and is kept, by its last activity (a PATCH), not by its creation. The
// service's clock is moved by hand; pages are signed at that clock.
const APPS: AppRecord[] = [
  { appId: 'one-at-once', appSecret: 'secret-of-one-at-once-012', quota: { uploadsInFlight: 1, requestsPerSecond: null } },
  { appId: 'kept', appSecret: 'secret-of-kept-0123456789' },
];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let service: TestService;
let clock = Date.now();
const start = (dataDir?: string) => startTestService({ apps: APPS, now: () => clock, dataDir });
beforeAll(async () => {
  service = await start();
});
afterAll(() => service?.stop(true));

/** A new video of `appId`, registered at the service's clock. */
async function registerVideo(appId: string): Promise<string> {
  const reply = await service.post({ ...service.auth(appId, clock), VideoTitle: 'clip', SourceFileGetType: '1' });
  return reply.body.VideoId as string;
}

/** The upload page of `videoId`, signed at the service's clock. */
async function page(appId: string, videoId: string): Promise<UploadPageBoot> {
  const auth = service.auth(appId, clock);
  const reply = await getPage(service, pageQuery(service, videoId, { timestamp: auth.Timestamp, token: auth.Token }, appId));
  const boot = jsonBlock<UploadPageBoot>(reply.html, 'upload-boot');
  if (!boot) throw new Error(`upload page refused: ${reply.status} ${reply.html}`);
  return boot;
}

async function newUpload(appId: string) {
  const videoId = await registerVideo(appId);
  const boot = await page(appId, videoId);
  const created = await tusCreate(boot.tusEndpoint, boot.ticket, 100);
  return { videoId, boot, created, url: created.headers.get('location')! };
}

describe('uploadsInFlight', () => {
  it('counts an upload while it receives bytes, and Retry-After says when an idle one stops counting', async () => {
    const first = await newUpload('one-at-once');
    expect(first.created.status).toBe(201);

    clock += MINUTE;
    const second = await page('one-at-once', await registerVideo('one-at-once'));
    const refused = await tusCreate(second.tusEndpoint, second.ticket, 100);
    expect(refused.status).toBe(429);
    // The first upload was last active a minute ago: it stops counting in four more, unless it goes on.
    expect(refused.headers.get('retry-after')).toBe(String((IN_FLIGHT_IDLE_MS - MINUTE) / 1000));

    // A PATCH keeps it in flight.
    clock += 3 * MINUTE;
    expect((await tusPatch(first.url, first.boot.ticket, 0, new Uint8Array(10))).status).toBe(204);
    clock += 3 * MINUTE;
    const again = await tusCreate(second.tusEndpoint, second.ticket, 100);
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe(String((IN_FLIGHT_IDLE_MS - 3 * MINUTE) / 1000));

    // Idle past the window: it holds no place, and the other user's upload starts.
    clock += IN_FLIGHT_IDLE_MS;
    expect((await tusCreate(second.tusEndpoint, second.ticket, 100)).status).toBe(201);
    // The paused one may still resume: its bytes are kept.
    expect((await tusHead(first.url, first.boot.ticket)).headers.get('upload-offset')).toBe('10');
  });
});

describe('the expiry of abandoned uploads', () => {
  it('goes by the last activity: an upload resumed within the day is kept, one idle for a day is removed', async () => {
    const upload = await newUpload('kept');
    expect(upload.created.status).toBe(201);
    // Resumed late in the day it was created, from a new page (a ticket lives a day).
    clock += 23 * HOUR;
    const resumed = await page('kept', upload.videoId);
    expect(resumed.resume).toMatchObject({ uploadUrl: upload.url, offset: 0 });
    expect((await tusPatch(upload.url, resumed.ticket, 0, new Uint8Array(10))).status).toBe(204);

    // A day after its creation the expiry (run at every start) keeps it: it was active an hour ago.
    clock += 2 * HOUR;
    await service.stop();
    service = await start(service.dataDir);
    // The restarted service listens on another port: the upload is the same one.
    const kept = (await page('kept', upload.videoId)).resume;
    expect([kept?.uploadUrl.split('/').at(-1), kept?.offset]).toEqual([upload.url.split('/').at(-1), 10]);

    // A day after its last bytes it is given up.
    clock += 23 * HOUR;
    await service.stop();
    service = await start(service.dataDir);
    expect((await page('kept', upload.videoId)).resume).toBeNull();
    expect(await service.context.stores.uploads.forVideo(upload.videoId)).toBeUndefined();
  });
});

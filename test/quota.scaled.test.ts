import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { createLogger } from '../src/server/log';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import { elementText, envelope, ENV_11, postElement, SOAP_11_HEADERS, soapPost } from './support/soap';
import { startTestService, type TestService } from './support/service';
import { errorLine, getPage, jsonBlock, pageQuery, registerVideo, tusCreate } from './uploadHelpers';

// Each channel's app has its own quota, so the tests do not spend each other's tokens. The clock
// is the service's own (`now`) and stands still, so no bucket refills while a test runs.
const APPS: AppRecord[] = [
  { appId: 'rest', appSecret: 'secret-of-rest-0123456789', quota: { requestsPerSecond: 1, requestsBurst: 2 } },
  { appId: 'page', appSecret: 'secret-of-page-0123456789', quota: { requestsPerSecond: 1, requestsBurst: 3, pagesPerVideoPerMinute: 3 } },
  {
    appId: 'per-video',
    appSecret: 'secret-of-per-video-01234',
    quota: { uploadsPerMinute: 4, uploadsPerVideoPerMinute: 2, requestsPerSecond: null },
  },
  { appId: 'soap', appSecret: 'secret-of-soap-0123456789', quota: { requestsPerSecond: 1, requestsBurst: 1 } },
  { appId: 'per-minute', appSecret: 'secret-of-per-minute-0123', quota: { uploadsPerMinute: 1, requestsPerSecond: null } },
  { appId: 'in-flight', appSecret: 'secret-of-in-flight-01234', quota: { uploadsInFlight: 1, requestsPerSecond: null } },
  { appId: 'storage', appSecret: 'secret-of-storage-0123456', quota: { storageBytes: 1000, requestsPerSecond: null } },
  // The service-wide default (APP_REQUESTS_PER_S below) lifted for this app by null.
  { appId: 'free', appSecret: 'secret-of-free-0123456789', quota: { requestsPerSecond: null } },
  { appId: 'default', appSecret: 'secret-of-default-0123456' },
  { appId: 'racing', appSecret: 'secret-of-racing-01234567', quota: { uploadsInFlight: 1, requestsPerSecond: null } },
  { appId: 'guarded', appSecret: 'secret-of-guarded-0123456', quota: { requestsPerSecond: 1, requestsBurst: 1 } },
];

let service: TestService;
const clock = Date.now();
/** The service's log lines of level warn and above. */
const logged: string[] = [];
beforeAll(async () => {
  service = await startTestService({
    apps: APPS,
    now: () => clock,
    env: { APP_REQUESTS_PER_S: '100', APP_REQUESTS_BURST: '3' },
    log: createLogger((line) => logged.push(line), 'warn'),
  });
});
afterAll(() => service?.stop(true));

const list = (appId: string) => service.get('/Api/Video/GetUserVideoList', { ...service.auth(appId, clock), createUser: 'pat' });

/** The upload page of a new video of `appId`, with its boot data when it opened. */
async function openPage(appId: string, videoId?: string) {
  const id = videoId ?? (await registerVideo(service, appId));
  const page = await getPage(service, pageQuery(service, id, {}, appId));
  return { videoId: id, page, boot: jsonBlock<UploadPageBoot>(page.html, 'upload-boot') };
}

describe('requestsPerSecond on the web API', () => {
  it('answers 429 with ResultCode 116 and Retry-After once the burst is spent, on every API path', async () => {
    expect((await list('rest')).status).toBe(200);
    expect((await list('rest')).status).toBe(200);
    const refused = await list('rest');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.AuthMsg).toEqual({
      ResultCode: '116',
      ResultMessage: expect.stringMatching(/^Too Many Requests: over the app's requestsPerSecond quota/),
    });
    const post = await service.post({ ...service.auth('rest', clock), VideoTitle: 'one more', SourceFileGetType: '1' });
    expect([post.status, post.body.AuthMsg.ResultCode]).toEqual([429, '116']);
    const get = await service.get('/Api/Video/Get', { ...service.auth('rest', clock), Id: 'any' });
    expect([get.status, get.body.AuthMsg.ResultCode]).toEqual([429, '116']);
  });

  it('does not throttle another app', async () => {
    for (let i = 0; i < 3; i++) expect((await list('default')).status).toBe(200);
    expect((await list('rest')).status).toBe(429);
    expect((await list('free')).status).toBe(200);
  });

  it('applies the APP_* defaults to an app without its own quota, and null lifts them', async () => {
    // APP_REQUESTS_BURST=3: 'default' spent its three above.
    expect((await list('default')).status).toBe(429);
    for (let i = 0; i < 5; i++) expect((await list('free')).status).toBe(200);
  });

  it("does not count requests that fail authentication, so a stranger cannot spend an app's tokens", async () => {
    for (let i = 0; i < 3; i++) {
      const forged = await service.get('/Api/Video/GetUserVideoList', {
        ...service.auth('guarded', clock),
        Token: '0'.repeat(32),
        createUser: 'pat',
      });
      expect([forged.status, forged.body.AuthMsg.ResultCode]).toEqual([401, '104']);
    }
    expect((await list('guarded')).status).toBe(200);
    expect((await list('guarded')).status).toBe(429);
  });
});

describe('the upload page, on a budget of its own per video', () => {
  it("spends the video's pagesPerVideoPerMinute, never the app's requestsPerSecond: reloads cannot starve the backend", async () => {
    // The registration spends one of 'page's three request tokens.
    const first = await openPage('page');
    expect(first.page.status).toBe(200);
    const loads = [];
    for (let i = 0; i < 6; i++) loads.push(await getPage(service, pageQuery(service, first.videoId, {}, 'page')));
    expect(loads.map((load) => load.status)).toEqual([200, 200, ...Array<number>(4).fill(429)]);
    const refused = loads.at(-1)!;
    // Three a minute: one page back every 20 s.
    expect(refused.headers.get('retry-after')).toBe('20');
    expect(errorLine(refused.html)).toMatch(
      /^ErrorCode : 116, ErrorMessage : Too Many Requests: over the video's pagesPerVideoPerMinute quota/,
    );
    // The host hears of it as a failure with the code.
    const report = jsonBlock<{ messages: { type: string; info?: { code: string } }[] }>(refused.html, 'upload-error');
    expect(report?.messages.find((message) => message.type === 'failure')?.info?.code).toBe('116');

    // The app's backend still has its two other tokens, and another video's page its own budget.
    expect((await list('page')).status).toBe(200);
    expect((await openPage('page')).page.status).toBe(200);
    expect((await list('page')).status).toBe(429);
  });
});

describe('requestsPerSecond on SOAP', () => {
  it('answers HTTP 200 with a PostResult carrying 116', async () => {
    const call = () => {
      const auth = service.auth('soap', clock);
      const body = postElement(
        { AppId: auth.AppId, Timestamp: auth.Timestamp, Token: auth.Token },
        { VideoTitle: 'soap', SourceFileGetType: '1' },
      );
      return soapPost(service, envelope(ENV_11, body), SOAP_11_HEADERS);
    };
    const first = await call();
    expect(elementText(first.text, 'ResultCode')).toBe('1');
    const refused = await call();
    expect(refused.status).toBe(200);
    expect(elementText(refused.text, 'ResultCode')).toBe('116');
    expect(elementText(refused.text, 'ResultMessage')).toMatch(/^Too Many Requests/);
    expect(elementText(refused.text, 'VideoId')).toBeUndefined();
  });
});

describe('upload quotas on tus creation', () => {
  it('uploadsPerMinute: a second creation within the minute is 429/116 with Retry-After', async () => {
    const one = await openPage('per-minute');
    const two = await openPage('per-minute');
    expect((await tusCreate(one.boot!.tusEndpoint, one.boot!.ticket, 100)).status).toBe(201);
    const refused = await tusCreate(two.boot!.tusEndpoint, two.boot!.ticket, 100);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(JSON.parse(refused.body).AuthMsg.ResultCode).toBe('116');
    // Nothing was recorded for the refused one.
    expect(await service.context.stores.uploads.forVideo(two.videoId)).toBeUndefined();
  });

  it("uploadsPerVideoPerMinute: one page's ticket creating again and again spends its video's budget, not the app's", async () => {
    const mine = await openPage('per-video');
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await tusCreate(mine.boot!.tusEndpoint, mine.boot!.ticket, 100));
    expect(replies.map((reply) => reply.status)).toEqual([201, 201, 429, 429]);
    expect(replies[2]!.headers.get('retry-after')).toBe('30');
    expect(JSON.parse(replies[2]!.body).AuthMsg.ResultMessage).toMatch(
      /^Too Many Requests: over the video's uploadsPerVideoPerMinute quota/,
    );
    // Other users of the app still have the app's uploadsPerMinute left (4, of which the page took 2).
    for (let i = 0; i < 2; i++) {
      const other = await openPage('per-video');
      expect((await tusCreate(other.boot!.tusEndpoint, other.boot!.ticket, 100)).status).toBe(201);
    }
    const last = await openPage('per-video');
    const spent = await tusCreate(last.boot!.tusEndpoint, last.boot!.ticket, 100);
    expect(JSON.parse(spent.body).AuthMsg.ResultMessage).toMatch(/over the app's uploadsPerMinute quota/);
  });

  it('uploadsInFlight: another video waits while one upload is unfinished; the same video may start over', async () => {
    const one = await openPage('in-flight');
    const two = await openPage('in-flight');
    expect((await tusCreate(one.boot!.tusEndpoint, one.boot!.ticket, 100)).status).toBe(201);
    const refused = await tusCreate(two.boot!.tusEndpoint, two.boot!.ticket, 100);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(refused.body).AuthMsg).toMatchObject({
      ResultCode: '116',
      ResultMessage: expect.stringContaining('uploadsInFlight'),
    });
    // A new upload of the first video replaces its unfinished one: still one in flight.
    expect((await tusCreate(one.boot!.tusEndpoint, one.boot!.ticket, 100)).status).toBe(201);
  });

  it('uploadsInFlight holds for creations at the same moment: exactly one of them is admitted', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map(() => openPage('racing')));
    const replies = await Promise.all(pages.map(({ boot }) => tusCreate(boot!.tusEndpoint, boot!.ticket, 100)));
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 429, 429, 429]);
    expect(replies.filter((reply) => reply.status === 429).every((reply) => JSON.parse(reply.body).AuthMsg.ResultCode === '116')).toBe(
      true,
    );
  });

  it('storageBytes: a creation that would pass the quota is 507/113, and a full quota refuses new videos', async () => {
    const one = await openPage('storage');
    const two = await openPage('storage');
    expect((await tusCreate(one.boot!.tusEndpoint, one.boot!.ticket, 600)).status).toBe(201);
    const refused = await tusCreate(two.boot!.tusEndpoint, two.boot!.ticket, 600);
    expect(refused.status).toBe(507);
    expect(JSON.parse(refused.body).AuthMsg).toMatchObject({ ResultCode: '113', ResultMessage: expect.stringContaining('storageBytes') });
    expect((await tusCreate(two.boot!.tusEndpoint, two.boot!.ticket, 400)).status).toBe(201);
    const full = await service.post({ ...service.auth('storage', clock), VideoTitle: 'no room', SourceFileGetType: '1' });
    expect([full.status, full.body.AuthMsg.ResultCode]).toEqual([507, '113']);
    // The app's quota, not the disk: no outage for an operator to chase.
    expect(logged.filter((line) => line.includes('storage outage') || line.includes('no space left in DATA_DIR'))).toEqual([]);
  });
});

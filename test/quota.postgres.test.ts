import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { startPostgres, type TestPostgres } from './support/postgres';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import { startTestService, type TestService } from './support/service';
import { getPage, jsonBlock, pageQuery, registerVideo, tusCreate } from './uploadHelpers';

// Two instances of the service on one PostgreSQL database are one service: an app's quota is
// spent from the same bucket whichever instance answers. The clock stands still, so the buckets
// never refill and the count of granted requests is exact.
const APPS: AppRecord[] = [
  { appId: 'turns', appSecret: 'secret-of-turns-012345678', quota: { requestsPerSecond: 1, requestsBurst: 4 } },
  { appId: 'rush', appSecret: 'secret-of-rush-0123456789', quota: { requestsPerSecond: 1, requestsBurst: 5 } },
  { appId: 'split', appSecret: 'secret-of-split-012345678', quota: { uploadsInFlight: 2 } },
  { appId: 'pages', appSecret: 'secret-of-pages-012345678', quota: { pagesPerVideoPerMinute: 3 } },
];

let postgres: TestPostgres;
let one: TestService;
let two: TestService;
const clock = Date.now();
beforeAll(async () => {
  postgres = await startPostgres();
  const env = { DATABASE_URL: await postgres.newDatabase() };
  one = await startTestService({ apps: APPS, env, now: () => clock });
  two = await startTestService({ apps: APPS, env, now: () => clock });
}, 60_000);
afterAll(async () => {
  await one?.stop(true);
  await two?.stop(true);
  await postgres?.stop();
});

const list = (service: TestService, appId: string) =>
  service.get('/Api/Video/GetUserVideoList', { ...service.auth(appId, clock), createUser: 'pat' });

describe('a quota shared by two instances on PostgreSQL', () => {
  it('counts requests to either instance against one bucket', async () => {
    const statuses: number[] = [];
    for (const service of [one, two, one, two, one, two]) statuses.push((await list(service, 'turns')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('lets exactly the burst through when both instances are hit at once', async () => {
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => list(i % 2 === 0 ? one : two, 'rush')));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(5);
    expect(replies.filter((reply) => reply.status === 429).every((reply) => reply.body.AuthMsg.ResultCode === '116')).toBe(true);
  });

  it('admits no more uploads in flight than the quota when creations reach both instances at once', async () => {
    const boots = await Promise.all(
      [one, two, one, two, one, two].map(async (service) => {
        const id = await registerVideo(service, 'split');
        return jsonBlock<UploadPageBoot>((await getPage(service, pageQuery(service, id, {}, 'split'))).html, 'upload-boot')!;
      }),
    );
    const replies = await Promise.all(boots.map((boot) => tusCreate(boot.tusEndpoint, boot.ticket, 100)));
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
  });

  it("spends one video's page budget from one bucket whichever instance serves the page, and forgets it once idle", async () => {
    const videoId = await registerVideo(one, 'pages');
    const statuses: number[] = [];
    for (const service of [one, two, one, two, one])
      statuses.push((await getPage(service, pageQuery(service, videoId, {}, 'pages'))).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);

    const rows = () => one.db.selectFrom('quota_buckets').select('bucket').where('app_id', '=', 'pages').execute();
    expect(await rows()).toEqual([{ bucket: `video-pages:${videoId}` }]);
    expect(await one.context.stores.quotaBuckets.forgetIdle(clock)).toBe(0);
    // The other tests' videos have buckets too.
    expect(await one.context.stores.quotaBuckets.forgetIdle(clock + 1)).toBeGreaterThan(1);
    expect(await rows()).toEqual([]);
    // An app's own buckets stay.
    expect(await one.db.selectFrom('quota_buckets').select('bucket').where('app_id', '=', 'turns').execute()).toEqual([
      { bucket: 'requests' },
    ]);
  });
});

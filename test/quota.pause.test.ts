import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { startTestService, type TestService } from './support/service';

// An app that resends without waiting for Retry-After is answered after a pause, so that clients
// of one app resending at once cannot take the service's event loop from other apps. Only a
// lower bound on the wait is asserted: a busy machine makes replies later, never sooner.
const APPS: AppRecord[] = [
  { appId: 'eager', appSecret: 'secret-of-eager-012345678', quota: { requestsPerSecond: 1, requestsBurst: 1 } },
  { appId: 'calm', appSecret: 'secret-of-calm-0123456789' },
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ apps: APPS });
});
afterAll(() => service?.stop(true));

const list = (appId: string) => service.get('/Api/Video/GetUserVideoList', { ...service.auth(appId), createUser: 'pat' });

describe('a request resent before Retry-After', () => {
  it('is refused after a pause until the bucket could grant again, while other apps are answered meanwhile', async () => {
    expect((await list('eager')).status).toBe(200);
    const refusedAt = performance.now();
    const refused = await list('eager');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);

    // The bucket's next token is due about 1 s after that refusal was decided, which was after
    // `refusedAt`: the request resent now is answered no sooner than that.
    const answered: string[] = [];
    const [again, calm] = await Promise.all([
      list('eager').then((reply) => (answered.push('eager'), reply)),
      list('calm').then((reply) => (answered.push('calm'), reply)),
    ]);
    expect(performance.now() - refusedAt).toBeGreaterThanOrEqual(900);
    expect([again.status, again.body.AuthMsg.ResultCode]).toEqual([429, '116']);
    expect(calm.status).toBe(200);
    expect(answered).toEqual(['calm', 'eager']);
  });
});

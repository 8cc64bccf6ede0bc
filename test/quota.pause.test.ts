import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { startTestService, type TestService } from './support/service';

// An app that resends without waiting for Retry-After is answered after a pause, so that clients
// of one app resending at once cannot take the service's event loop from other apps. The
// service's clock stands still, so the bucket never refills and the pause is its whole 1 s; only
// a lower bound on the wait is asserted: a busy machine makes replies later, never sooner.
const APPS: AppRecord[] = [
  { appId: 'eager', appSecret: 'secret-of-eager-012345678', quota: { requestsPerSecond: 1, requestsBurst: 1 } },
  { appId: 'calm', appSecret: 'secret-of-calm-0123456789' },
];

let service: TestService;
const clock = Date.now();
beforeAll(async () => {
  service = await startTestService({ apps: APPS, now: () => clock });
});
afterAll(() => service?.stop(true));

const list = (appId: string) => service.get('/Api/Video/GetUserVideoList', { ...service.auth(appId, clock), createUser: 'pat' });

describe('a request resent before Retry-After', () => {
  it('is refused after a pause until the bucket could grant again, and another app is still answered', async () => {
    expect((await list('eager')).status).toBe(200);
    const refusedAt = performance.now();
    const refused = await list('eager');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);

    // The bucket's next token is 1 s away, by the service's clock: the request resent now is
    // answered about 1 s after it was sent (a timer may fire a millisecond early), which was after `refusedAt`.
    const [again, calm] = await Promise.all([list('eager'), list('calm')]);
    expect(performance.now() - refusedAt).toBeGreaterThanOrEqual(950);
    expect([again.status, again.body.AuthMsg.ResultCode, again.headers.get('retry-after')]).toEqual([429, '116', '1']);
    expect(calm.status).toBe(200);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop(true));

/**
 * A slow but steady upload must not be cut by a whole-request deadline: the server's only limit
 * on a body that keeps arriving is the idle timeout. Checked on the server object, because a real
 * 300 s trickle has no place in a test run.
 */
it('sets no whole-request deadline, only an idle one', () => {
  expect(service.server.requestTimeout).toBe(0);
  expect(service.server.timeout).toBe(service.context.config.httpIdleTimeoutMs);
});

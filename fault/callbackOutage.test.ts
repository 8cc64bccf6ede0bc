import { afterAll, describe, expect, it } from 'vitest';
import { startCallbackReceiver, type CallbackReceiver } from '../e2e/support/callbackReceiver';
import { TEST_APPS } from '../test/support/service';
import { registerVideo } from '../test/uploadHelpers';
import { serviceHome, startCrashable, stopCrashable, type CrashableService } from './support/crashableService';
import { startFaultyProxy, type FaultyProxy } from './support/faultyProxy';

let proxy: FaultyProxy | undefined;
let receiver: CallbackReceiver | undefined;
let service: CrashableService | undefined;
let home: ReturnType<typeof serviceHome> | undefined;
afterAll(async () => {
  await stopCrashable(service);
  await proxy?.close();
  await receiver?.close();
  home?.remove();
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = await startCallbackReceiver();
  await probe.close();
  return Number(new URL(probe.url).port);
}

describe('a callback receiver that is down, then up', () => {
  it('gets the callback once it is up, exactly once, after failed attempts that were retried', async () => {
    // The app's callbackUrl names the proxy, which first leads nowhere (connections refused).
    proxy = await startFaultyProxy(await closedPort());
    home = serviceHome([{ ...TEST_APPS[0]!, callbackUrl: `${proxy.origin}/callback` }]);
    service = await startCrashable(home, { CALLBACK_RETRY_BASE_MS: '200' });
    // A type-2 video whose source is a private address ends in status 4 at once: its callback is queued.
    const videoId = await registerVideo(service, 'app-a', 2);
    await service.process.waitFor(/"message":"callback attempt failed".*"attempt":2/);

    receiver = await startCallbackReceiver();
    proxy.retarget(Number(new URL(receiver.url).port));
    const delivered = await receiver.waitFor(videoId, undefined, 30_000);
    expect(delivered.fields).toMatchObject({ VideoId: videoId, VideoStatus: '4', AppId: 'app-a' });
    await service.process.waitFor(/"message":"callback delivered"/);
    expect(receiver.received.filter((callback) => callback.fields.VideoId === videoId)).toHaveLength(1);
  });
});

import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext } from './support/browser';
import { makeVideo, removeVideo } from './support/media';
import { startBreakingProxy, type UploadPathFault } from './support/breakingProxy';
import { chooseFile, openButton, openPopup, recordTusRequests, uploadFrame, waitForEvents, waitForOutcome } from './support/widget';
import { startWorld, type World } from './support/world';

// `npm start` says PUBLIC_URL http://localhost:8080 while the integrator types 127.0.0.1: two
// names of one service, two origins to a browser. The page is loaded by the name the host page
// used, and its uploads must go there too (they went to PUBLIC_URL and CORS refused them).
let world: World;
let context: BrowserContext;
let clip: string;

beforeAll(async () => {
  [world, clip] = await Promise.all([
    startWorld({ env: { PUBLIC_URL: 'http://localhost:0' } }),
    makeVideo({ seconds: 2, bitrate: 500_000 }),
  ]);
});
afterAll(async () => {
  await context?.close();
  await world?.stop();
  removeVideo(clip);
});

describe('serviceUrl by another name of the service than PUBLIC_URL', () => {
  beforeAll(async () => {
    context = await newContext(world.browser);
    expect(new URL(world.service.address).hostname).toBe('127.0.0.1');
    expect(new URL(world.service.context.config.publicUrl).hostname).toBe('localhost');
  });

  it('uploads from the overlay', async () => {
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/overlay.html', world.widgetAuth(videoId));
    await openButton(page).click();
    await chooseFile(await uploadFrame(page), clip);
    const events = await waitForEvents(page, (list) => list.length > 0);
    expect(events.map((event) => event.type)).toContain('success');
    expect((await world.video(videoId))?.sourceFile).toBe('source.mp4');
  });

  it('uploads from the popup', async () => {
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/popup.html', world.widgetAuth(videoId));
    await chooseFile(await openPopup(page), clip);
    const events = await waitForEvents(page, (list) => list.length > 0);
    expect(events.map((event) => event.type)).toContain('success');
  });
});

// A proxy in front of the service that passes its pages on but not its upload path: no retry can
// help, so the uploader says so at once, naming both origins and what to change, instead of
// retrying for about 20 s and ending as "Connection lost".
describe('an address whose proxy does not pass the upload path on', () => {
  beforeAll(async () => {
    context ??= await newContext(world.browser);
  });

  it.each<[UploadPathFault, string]>([
    ['drop', 'closes the connection'],
    ['notFound', 'answers its own 404'],
    ['badGateway', 'answers its own 502'],
  ])('%s (the proxy %s): the specific error at once, in the uploader and to onFailure', async (fault) => {
    const proxy = await startBreakingProxy(world.service.address, fault);
    const serviceOrigin = new URL(world.service.context.config.publicUrl).origin;
    // The host page loads the loader, and with it the uploader, through the proxy.
    world.host.serviceUrl = proxy.origin;
    try {
      const videoId = await world.registerVideo();
      const page = await world.openHostPage(context, '/overlay.html', world.widgetAuth(videoId));
      await openButton(page).click();
      const frame = await uploadFrame(page);
      const tus = recordTusRequests(context, proxy.origin);
      await chooseFile(frame, clip);
      const text = `Uploads cannot reach the video service: this page came from ${proxy.origin}, but /UploadWidget/files/ there does not lead to the service, whose PUBLIC_URL is ${serviceOrigin}. The site owner can set serviceUrl to ${serviceOrigin}, or make ${proxy.origin} pass /UploadWidget/files/ on to the service.`;
      const events = await waitForEvents(page, (list) => list.length > 0, 15_000);
      expect(events).toEqual([
        {
          type: 'failure',
          info: { videoId, reason: 'validation', code: 'unreachable', message: text, fileName: 'clip.mp4', fileSize: expect.any(Number) },
        },
      ]);
      expect(await frame.getByRole('alert').innerText()).toBe(text);
      expect(await waitForOutcome(page)).toEqual({
        rejected: expect.objectContaining({ kind: 'failure', code: 'unreachable', message: text }),
      });
      // At once: the creation was tried at most twice and the retry a second later (the third) had
      // not been needed, where tus-js-client's schedule would have tried six times over about 20 s.
      expect((await tus.settle()).length).toBeLessThanOrEqual(3);
      tus.stop();
      expect((await world.video(videoId))?.status).toBe(8);
    } finally {
      world.host.serviceUrl = world.service.address;
      await proxy.close();
    }
  });
});

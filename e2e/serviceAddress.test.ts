import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext } from './support/browser';
import { makeVideo, removeVideo } from './support/media';
import { chooseFile, openButton, openPopup, uploadFrame, waitForEvents } from './support/widget';
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

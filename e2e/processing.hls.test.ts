import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { markSourceStored } from '../src/server/processing/pipeline';
import { waitForLadder } from '../test/support/ladder';
import { placeMedia } from '../test/support/storage';
import { newContext } from './support/browser';
import { makeVideo, removeVideo } from './support/media';
import { playAndSeekNearEnd, playingVideo } from './support/playback';
import { startWorld, type World } from './support/world';

/**
 * Adaptive streaming in Chromium: hls.js (the test's own copy, loaded into an app page on another
 * origin than the service) plays the master playlist and moves to a lighter rung when the page's
 * network is throttled; each rung, the same file, still plays and seeks in a plain `<video>`.
 */

const HLS_SCRIPT = createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js');

let world: World;
let context: BrowserContext;
let clip: string;
let reply: Awaited<ReturnType<World['getVideo']>>;

beforeAll(async () => {
  world = await startWorld();
  // 720p, so the ladder has three rungs; long enough that a few seconds of buffer leave fragments to fetch after the throttle.
  clip = await makeVideo({ seconds: 24, bitrate: 3_000_000, width: 1280, height: 720 }, 'hls.mp4');
  const videoId = await world.registerVideo();
  await placeMedia(world.service, videoId, 'source.mp4', clip);
  expect(await markSourceStored(world.service.context, videoId, 'source.mp4')).toBe(true);
  await waitForLadder(world.service.db, videoId, 200_000);
  reply = await world.getVideo(videoId);
}, 240_000);
afterAll(async () => {
  await world?.stop();
  removeVideo(clip);
});
beforeEach(async () => {
  context = await newContext(world.browser);
});
afterEach(() => context?.close());

interface Switch {
  height: number;
  at: number;
}

/** An app page that plays `master` with hls.js, keeping only a few seconds ahead so it fetches fragments all along. */
async function playWithHls(page: Page, master: string): Promise<void> {
  await page.goto(`${world.host.origin}/blank.html`);
  await page.addScriptTag({ path: HLS_SCRIPT });
  await page.evaluate(async (url) => {
    const state = window as unknown as { switches: Switch[]; hlsErrors: string[] };
    state.switches = [];
    state.hlsErrors = [];
    const video = document.createElement('video');
    video.muted = true;
    document.body.append(video);
    const Hls = (window as unknown as { Hls: typeof import('hls.js').default }).Hls;
    const hls = new Hls({ maxBufferLength: 4, maxMaxBufferLength: 4, capLevelToPlayerSize: false });
    hls.on(Hls.Events.LEVEL_SWITCHED, (_, data) => state.switches.push({ height: hls.levels[data.level]!.height, at: video.currentTime }));
    hls.on(Hls.Events.ERROR, (_, data) => state.hlsErrors.push(`${data.type}: ${data.details}`));
    hls.loadSource(url);
    hls.attachMedia(video);
    await new Promise((done) => hls.on(Hls.Events.MANIFEST_PARSED, done));
    await video.play();
  }, master);
}

const switches = (page: Page) => page.evaluate(() => (window as unknown as { switches: Switch[] }).switches);
const playhead = (page: Page) => page.evaluate(() => document.querySelector('video')!.currentTime);

describe('HLS through hls.js', () => {
  it('MobilePlayURL is the master playlist, which hls.js on another origin plays at the best rung, then a lighter one when the network slows', async () => {
    const master = reply.MediaSever.MobilePlayURL!;
    expect(master).toMatch(/\/master\.m3u8$/);
    expect(new URL(master).origin).not.toBe(world.host.origin);
    const page = await context.newPage();
    await playWithHls(page, master);

    // Nothing throttled (loopback): it climbs to the 720p rung.
    await page.waitForFunction(
      () => (window as unknown as { switches: Switch[] }).switches.some((entry) => entry.height === 720),
      undefined,
      {
        timeout: 30_000,
      },
    );

    // About 400 kbit/s: below the 720p and 480p rungs' peaks, so it has to come down.
    const network = await context.newCDPSession(page);
    await network.send('Network.enable');
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 40,
      downloadThroughput: 50_000,
      uploadThroughput: -1,
    });
    const throttledAt = await playhead(page);
    await page.waitForFunction(
      (since) => (window as unknown as { switches: Switch[] }).switches.some((entry) => entry.at >= since && entry.height < 720),
      throttledAt,
      { timeout: 60_000 },
    );
    const after = (await switches(page)).filter((entry) => entry.at >= throttledAt);
    expect(Math.min(...after.map((entry) => entry.height))).toBeLessThan(720);
    // And it goes on playing from the lighter rung.
    const then = await playhead(page);
    await page.waitForFunction((from) => document.querySelector('video')!.currentTime > from + 1, then, { timeout: 30_000 });
    expect(
      await page.evaluate(() =>
        (window as unknown as { hlsErrors: string[] }).hlsErrors.filter((error) => !error.includes('bufferStalled')),
      ),
    ).toEqual([]);
  });
});

describe('each rung as a plain MP4', () => {
  it('plays and seeks in a <video> with no playlist, the same file HLS reads by byte ranges', async () => {
    expect(reply.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['720P', '480P', '360P']);
    for (const file of reply.VideoPlayFile) {
      const seek = await playAndSeekNearEnd(await playingVideo(context, world, file.VideoURL));
      expect(seek.duration, file.VideoURL).toBeGreaterThan(23);
      expect(seek.duration, file.VideoURL).toBeLessThan(25);
      expect(Math.abs(seek.at - seek.target), file.VideoURL).toBeLessThan(0.5);
      expect(seek.after, file.VideoURL).toBeGreaterThan(seek.target);
    }
  });
});

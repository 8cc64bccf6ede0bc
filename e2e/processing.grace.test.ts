import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { markSourceStored } from '../src/server/processing/pipeline';
import { waitForLadder } from '../test/support/ladder';
import { placeMedia } from '../test/support/storage';
import { newContext } from './support/browser';
import { makeVideo, removeVideo } from './support/media';
import { playingVideo } from './support/playback';
import { startWorld, type World } from './support/world';

/**
 * A `<video>` in Chromium playing the remux (PlayURL at status 1) when the rungs replace it plays
 * on to its end from the same URL; once the grace is over, that URL, as an app stored it, plays
 * the best rung through the service's redirect.
 */

let world: World;
let context: BrowserContext;
let clip: string;

beforeAll(async () => {
  world = await startWorld();
  // 720p at 3 Mbit/s: its rungs take a while, and the page, throttled, has fetched only part of it when they land.
  clip = await makeVideo({ seconds: 24, bitrate: 3_000_000, width: 1280, height: 720 }, 'grace.mp4');
}, 60_000);
afterAll(async () => {
  await world?.stop();
  removeVideo(clip);
});
beforeEach(async () => {
  context = await newContext(world.browser);
});
afterEach(() => context?.close());

it('plays the remux to its end across the moment the rungs land, then its URL plays the best rung', { timeout: 300_000 }, async () => {
  const videoId = await world.registerVideo();
  await placeMedia(world.service, videoId, 'source.mp4', clip);
  expect(await markSourceStored(world.service.context, videoId, 'source.mp4')).toBe(true);
  let first = await world.getVideo(videoId);
  for (const deadline = Date.now() + 120_000; first.Video.Status !== 1 && Date.now() < deadline; first = await world.getVideo(videoId))
    await new Promise((wake) => setTimeout(wake, 50));
  expect(first.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['Original']);
  const stored = first.MediaSever.PlayURL!;

  // 400 kbit/s, far under the file's rate, from the page's first request: it keeps asking for more while it plays.
  const player = await context.newPage();
  const network = await context.newCDPSession(player);
  await network.send('Network.enable');
  const throttle = (bytesPerSecond: number) =>
    network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: bytesPerSecond < 0 ? 0 : 20,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
  await throttle(50_000);
  let landed = false;
  const afterLanding: number[] = [];
  player.on('response', (response) => {
    if (landed && response.url() === stored) afterLanding.push(response.status());
  });
  await playingVideo(context, world, stored, player);

  await waitForLadder(world.service.db, videoId, 200_000);
  landed = true;
  expect((await world.getVideo(videoId)).VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['720P', '480P', '360P']);
  // Mid-playback: on to a part not fetched yet, then to the end, unthrottled so it does not take minutes.
  const state = await player.evaluate(async () => {
    const video = document.querySelector('video')!;
    const before = { time: video.currentTime, buffered: video.buffered.length > 0 ? video.buffered.end(video.buffered.length - 1) : 0 };
    const seeked = new Promise((done) => video.addEventListener('seeked', done, { once: true }));
    video.currentTime = video.duration - 3;
    await seeked;
    return { ...before, duration: video.duration };
  });
  expect(state.buffered).toBeLessThan(state.duration - 3);
  await throttle(-1);
  await player.waitForFunction(() => document.querySelector('video')!.ended, undefined, { timeout: 60_000 });
  expect(await player.evaluate(() => document.querySelector('video')!.error)).toBeNull();
  // The part after the seek came from the remux's own URL, after the rungs landed.
  expect(afterLanding.length).toBeGreaterThan(0);
  expect(afterLanding.every((status) => status === 206 || status === 200)).toBe(true);

  // The grace over (its due time brought forward, as the clock would): the same URL now plays the best rung.
  await world.service.db.updateTable('retired_play_files').set({ remove_at: Date.now() }).where('video_id', '=', videoId).execute();
  const later = await context.newPage();
  const answers: { url: string; status: number }[] = [];
  later.on('response', (response) => answers.push({ url: response.url(), status: response.status() }));
  await playingVideo(context, world, stored, later);
  await later.waitForFunction(() => document.querySelector('video')!.currentTime > 1, undefined, { timeout: 30_000 });
  expect(await later.evaluate(() => document.querySelector('video')!.error)).toBeNull();
  const best = (await world.getVideo(videoId)).MediaSever.PlayURL!;
  expect(answers.filter((answer) => answer.url === stored).map((answer) => answer.status)).toContain(307);
  expect(answers.some((answer) => answer.url === best && [200, 206].includes(answer.status))).toBe(true);
  expect(answers.filter((answer) => answer.status === 404)).toEqual([]);
});

import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyCallback } from '../src/sdk';
import { newContext } from './support/browser';
import { makeVideo, sha256File, removeVideo } from './support/media';
import { playAndSeekNearEnd, playingVideo, uploadThroughOverlay } from './support/playback';
import { APP_A, startWorld, type World } from './support/world';

/** Until transcoding ends; generous because the machine's 2 cores are shared. */
const PROCESSING_TIMEOUT = 100_000;

let world: World;
let context: BrowserContext;
let clip: string;

beforeAll(async () => {
  world = await startWorld();
  clip = await makeVideo({ seconds: 6, bitrate: 1_000_000, width: 640, height: 360 }, 'clip.mp4');
});
afterAll(async () => {
  await world?.stop();
  removeVideo(clip);
});
beforeEach(async () => {
  context = await newContext(world.browser);
});
afterEach(() => context?.close());

describe('from the widget to a playable video', () => {
  it('the app receives VideoStatus 1, Get lists play files, and a play file plays and seeks in Chromium', async () => {
    const videoId = await world.registerVideo(APP_A, 'processing e2e');
    const uploader = await uploadThroughOverlay(context, world, videoId, clip);

    const callback = await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);
    // The uploader, still open, followed processing to its end (it asks every 5 s).
    await uploader.getByText('Processing is done: the video is ready to play.').waitFor({ timeout: 15_000 });
    expect(callback.fields).toMatchObject({ VideoId: videoId, VideoStatus: '1', AppId: APP_A });
    expect(verifyCallback(callback.body, { appId: APP_A, appSecret: 'secret-of-app-a-0123456789', headers: callback.headers })).toEqual({
      videoId,
      videoStatus: 1,
    });

    // The H.264 clip reaches 1 with its remux (`Original`), which the first rung replaces and removes: play a rung.
    let got = await world.getVideo(videoId);
    for (let tries = 0; tries < 600 && got.VideoPlayFile.some((play) => play.BitrateLabel === 'Original'); tries++) {
      await new Promise((wake) => setTimeout(wake, 200));
      got = await world.getVideo(videoId);
    }
    expect(got.Video.Status).toBe(1);
    expect(got.VideoPlayFile.length).toBeGreaterThan(0);
    expect(got.MediaSever.PlayURL).not.toBe('');

    const media: { url: string; status: number }[] = [];
    context.on('response', (response) => media.push({ url: response.url(), status: response.status() }));
    const file = got.VideoPlayFile[0]!.VideoURL;
    const seek = await playAndSeekNearEnd(await playingVideo(context, world, file));
    expect(seek.duration).toBeGreaterThan(5);
    expect(Math.abs(seek.at - seek.target)).toBeLessThan(0.5);
    expect(seek.after).toBeGreaterThan(seek.target);
    expect(media.filter((response) => response.url === file).map((response) => response.status)).toContain(206);
  });

  it('the picture sizes of the spec load in Chromium at their exact dimensions', async () => {
    const videoId = await world.registerVideo();
    await uploadThroughOverlay(context, world, videoId, clip);
    await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);
    const { PicSavePath } = (await world.getVideo(videoId)).Video;
    expect(PicSavePath).toMatch(/^http/);

    const page = await context.newPage();
    await page.goto(`${world.host.origin}/blank.html`);
    const sizes: Record<string, [number, number]> = {
      2: [200, 200],
      3: [262, 175],
      4: [200, 110],
      5: [180, 136],
      6: [680, 530],
      7: [420, 240],
    };
    for (const [t, [width, height]] of Object.entries(sizes)) {
      const url = new URL(PicSavePath);
      url.searchParams.set('t', t);
      const natural = await page.evaluate(
        (src) =>
          new Promise<[number, number]>((done, fail) => {
            const image = new Image();
            image.onload = () => done([image.naturalWidth, image.naturalHeight]);
            image.onerror = () => fail(new Error(`picture ${src} did not load`));
            image.src = src;
          }),
        url.href,
      );
      expect(natural, `?t=${t}`).toEqual([width, height]);
    }
  });

  it('with needHandleSepcial true the only play file is the uploaded file itself', async () => {
    const videoId = await world.registerVideo();
    await uploadThroughOverlay(context, world, videoId, clip, { needHandleSepcial: true });
    await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);
    const got = await world.getVideo(videoId);
    expect(got.VideoPlayFile).toHaveLength(1);
    const res = await fetch(got.VideoPlayFile[0]!.VideoURL);
    expect(res.status).toBe(200);
    const { createHash } = await import('node:crypto');
    expect(
      createHash('sha256')
        .update(Buffer.from(await res.arrayBuffer()))
        .digest('hex'),
    ).toBe(await sha256File(clip));
  });

  it('a corrupt file that starts like an MP4 ends in status 7, reported by the callback', async () => {
    const videoId = await world.registerVideo();
    // An MP4 box header passes the uploader's content check; what follows cannot be decoded.
    const garbage = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(256 * 1024, 'not a video at all ')]);
    await uploadThroughOverlay(context, world, videoId, { name: 'broken.mp4', mimeType: 'video/mp4', buffer: garbage });
    const callback = await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus !== '5', PROCESSING_TIMEOUT);
    expect(callback.fields.VideoStatus).toBe('7');
    expect((await world.getVideo(videoId)).Video.Status).toBe(7);
  });
});

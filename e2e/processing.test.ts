import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkCallback } from '../demo/signing';
import { newContext } from './support/browser';
import { makeVideo, sha256File, removeVideo } from './support/media';
import { chooseFile, openButton, uploadFrame, waitForEvents } from './support/widget';
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

async function uploadThroughOverlay(videoId: string, file: string | { name: string; mimeType: string; buffer: Buffer }, extra: object = {}): Promise<void> {
  const page = await context.newPage();
  await page.goto(world.hostUrl('/overlay.html', { ...world.widgetAuth(videoId), ...extra }));
  await openButton(page).click();
  await chooseFile(await uploadFrame(page), file);
  await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
  await page.close();
}

/** A page on the app's origin with a muted `<video>` of `src`, playing. */
async function player(src: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${world.host.origin}/blank.html`);
  await page.evaluate(async (url) => {
    const video = document.createElement('video');
    video.muted = true;
    video.src = url;
    document.body.append(video);
    await video.play();
  }, src);
  return page;
}

const currentTime = (page: Page) => page.evaluate(() => document.querySelector('video')!.currentTime);

describe('from the widget to a playable video', () => {
  it('the app receives VideoStatus 1, Get lists play files, and a play file plays and seeks in Chromium', async () => {
    const videoId = await world.registerVideo(APP_A, 'processing e2e');
    await uploadThroughOverlay(videoId, clip);

    const callback = await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);
    expect(callback.fields).toMatchObject({ VideoId: videoId, VideoStatus: '1', AppId: APP_A });
    const signature = callback.headers['x-signature'];
    expect(checkCallback('secret-of-app-a-0123456789', callback.body, Array.isArray(signature) ? signature[0] : signature)).toEqual({
      tokenValid: true,
      signatureValid: true,
      fresh: true,
    });

    const got = await world.getVideo(videoId);
    expect(got.Video.Status).toBe(1);
    expect(got.VideoPlayFile.length).toBeGreaterThan(0);
    expect(got.MediaSever.PlayURL).not.toBe('');

    const media: { url: string; status: number }[] = [];
    context.on('response', (response) => media.push({ url: response.url(), status: response.status() }));
    const file = got.VideoPlayFile[0]!.VideoURL;
    const page = await player(file);
    await page.waitForFunction(() => document.querySelector('video')!.currentTime > 1, undefined, { timeout: 30_000 });

    const seek = await page.evaluate(async () => {
      const video = document.querySelector('video')!;
      const target = video.duration - 2;
      const seeked = new Promise((done) => video.addEventListener('seeked', done, { once: true }));
      video.currentTime = target;
      await seeked;
      return { target, at: video.currentTime, duration: video.duration };
    });
    expect(seek.duration).toBeGreaterThan(5);
    expect(Math.abs(seek.at - seek.target)).toBeLessThan(0.5);
    await page.waitForFunction((target) => document.querySelector('video')!.currentTime > target + 0.3, seek.target, { timeout: 30_000 });
    expect(await currentTime(page)).toBeGreaterThan(seek.target);
    expect(media.filter((response) => response.url === file).map((response) => response.status)).toContain(206);
  });

  it('the picture sizes of the spec load in Chromium at their exact dimensions', async () => {
    const videoId = await world.registerVideo();
    await uploadThroughOverlay(videoId, clip);
    await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);
    const { PicSavePath } = (await world.getVideo(videoId)).Video;
    expect(PicSavePath).toMatch(/^http/);

    const page = await context.newPage();
    await page.goto(`${world.host.origin}/blank.html`);
    const sizes: Record<string, [number, number]> = { 2: [200, 200], 3: [262, 175], 4: [200, 110], 5: [180, 136], 6: [680, 530], 7: [420, 240] };
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
    await uploadThroughOverlay(videoId, clip, { needHandleSepcial: true });
    await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);
    const got = await world.getVideo(videoId);
    expect(got.VideoPlayFile).toHaveLength(1);
    const res = await fetch(got.VideoPlayFile[0]!.VideoURL);
    expect(res.status).toBe(200);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex')).toBe(await sha256File(clip));
  });

  it('a file that only claims to be a video ends in status 7, reported by the callback', async () => {
    const videoId = await world.registerVideo();
    const garbage = Buffer.alloc(256 * 1024, 'not a video at all ');
    await uploadThroughOverlay(videoId, { name: 'broken.mp4', mimeType: 'video/mp4', buffer: garbage });
    const callback = await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus !== '5', PROCESSING_TIMEOUT);
    expect(callback.fields.VideoStatus).toBe('7');
    expect((await world.getVideo(videoId)).Video.Status).toBe(7);
  });
});

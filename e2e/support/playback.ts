import type { BrowserContext, Frame, Page } from 'playwright-core';
import { chooseFile, openButton, uploadFrame, waitForEvents } from './widget';
import type { World } from './world';

/** Uploads through the overlay; returns the uploader's frame, still open after the success. */
export async function uploadThroughOverlay(
  context: BrowserContext,
  world: World,
  videoId: string,
  file: string | { name: string; mimeType: string; buffer: Buffer },
  extra: object = {},
): Promise<Frame> {
  const page = await context.newPage();
  await page.goto(world.hostUrl('/overlay.html', { ...world.widgetAuth(videoId), ...extra }));
  await openButton(page).click();
  const frame = await uploadFrame(page);
  await chooseFile(frame, file);
  await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
  return frame;
}

/**
 * A page on the app's origin with a muted `<video>` of `src`, playing. Pass `page` to listen to
 * its responses from the first one.
 */
export async function playingVideo(context: BrowserContext, world: World, src: string, given?: Page): Promise<Page> {
  const page = given ?? (await context.newPage());
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

/**
 * Waits for the page's `<video>` to play past 1 s, seeks it to 2 s before its end, and waits for
 * it to play on from there: where the seek landed, the duration, and the time reached after.
 */
export async function playAndSeekNearEnd(page: Page): Promise<{ target: number; at: number; duration: number; after: number }> {
  await page.waitForFunction(() => document.querySelector('video')!.currentTime > 1, undefined, { timeout: 30_000 });
  const seek = await page.evaluate(async () => {
    const video = document.querySelector('video')!;
    const target = video.duration - 2;
    const seeked = new Promise((done) => video.addEventListener('seeked', done, { once: true }));
    video.currentTime = target;
    await seeked;
    return { target, at: video.currentTime, duration: video.duration };
  });
  await page.waitForFunction((target) => document.querySelector('video')!.currentTime > target + 0.3, seek.target, { timeout: 30_000 });
  return { ...seek, after: await page.evaluate(() => document.querySelector('video')!.currentTime) };
}

import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_CAMERA_ARGS, launchBrowser } from './support/browser';
import { reviewTake, startRecording, takeDigest, uploadTake } from './support/recording';
import { openButton, uploadFrame, waitForEvents } from './support/widget';
import { startServiceWorld, type ServiceWorld } from './support/world';

/** The same camera, but every permission prompt answered No, as a person who refuses. */
const REFUSING = ['--use-fake-device-for-media-stream', '--deny-permission-prompts'];

let world: ServiceWorld;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  world = await startServiceWorld();
  browser = await launchBrowser(FAKE_CAMERA_ARGS);
});
afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await world?.stop();
});
afterEach(() => context?.close());

const RECORDING = { sources: ['file', 'camera'], uploadWhileRecording: true };

/** `readsTake`: the test reads the take through its blob: URL, which the page's CSP (connect-src) refuses to the page itself. */
async function openUploader(
  on: Browser,
  videoId: string,
  readsTake = false,
  viewport = { width: 1200, height: 800 },
): Promise<{ page: Page; frame: Frame }> {
  context = await on.newContext({ locale: 'en-US', viewport, bypassCSP: readsTake });
  const page = await context.newPage();
  await page.goto(world.hostUrl('/overlay.html', { ...world.widgetAuth(videoId), ...RECORDING }));
  await openButton(page).click();
  return { page, frame: await uploadFrame(page) };
}

const wait = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

describe('recording with the camera', () => {
  it('uploads while recording: most bytes are on the service before Stop, and the video plays with its real duration', async () => {
    const videoId = await world.registerVideo();
    const { page, frame } = await openUploader(browser, videoId, true);
    const started = await startRecording(frame, 'Record with camera');
    await wait(10_000);
    const beforeStop = await world.storedUploadBytes(videoId);
    await frame.getByRole('button', { name: 'Stop' }).click();
    const clock = (Date.now() - started) / 1000;
    const take = await reviewTake(frame, clock);
    expect(beforeStop, `${beforeStop} of ${take.size} bytes before Stop`).toBeGreaterThan(take.size / 2);

    const success = await uploadTake(world, page, frame, videoId, take);
    expect(success.fileName).toMatch(/^recording-\d{4}-\d{2}-\d{2}-\d{4}\.webm$/);
  });

  it('Record again (by keyboard, 320 CSS px wide) deletes what was sent while recording: nothing is left on the service', async () => {
    const videoId = await world.registerVideo();
    const { page, frame } = await openUploader(browser, videoId, false, { width: 320, height: 640 });
    await startRecording(frame, 'Record with camera');
    // The recorder's stylesheet came with its chunk, through the page's CSP (style-src 'self').
    expect(await frame.locator('video').evaluate((video) => getComputedStyle(video).display)).toBe('block');
    await wait(3_000);
    expect(await world.storedUploadBytes(videoId)).toBeGreaterThan(0);
    await frame.getByRole('button', { name: 'Stop' }).click();
    // The review takes focus on Upload; its buttons fit the width (they wrap) and Tab reaches the next.
    const upload = frame.getByRole('button', { name: 'Upload' });
    await expect.poll(() => upload.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await frame.getByRole('button', { name: 'Record again' }).evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await frame.getByRole('button', { name: 'Start recording' }).waitFor();
    await expect.poll(() => world.storedUploadBytes(videoId), { timeout: 10_000 }).toBeNull();
  });

  it('a network cut while recording loses nothing: the stored file is the recording, byte for byte', async () => {
    const videoId = await world.registerVideo();
    const { page, frame } = await openUploader(browser, videoId, true);
    await startRecording(frame, 'Record with camera');
    await wait(2_000);
    const restore = world.networkOutage();
    await wait(5_000);
    restore();
    await wait(2_000);
    await frame.getByRole('button', { name: 'Stop' }).click();
    await frame.getByRole('button', { name: 'Upload' }).waitFor();
    const take = await takeDigest(frame);
    await frame.getByRole('button', { name: 'Upload' }).click();
    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await expect.poll(() => world.sourceSha256(videoId), { timeout: 30_000 }).toBe(take.sha256);
  });

  it('a touch screen records with its own camera app: a file input for video with capture', async () => {
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(world.hostUrl('/overlay.html', { ...world.widgetAuth(await world.registerVideo()), ...RECORDING }));
    await openButton(page).click();
    const frame = await uploadFrame(page);
    await frame.getByRole('button', { name: 'Record with camera' }).waitFor();
    const input = frame.locator('input[type="file"][capture]');
    expect(await input.getAttribute('accept')).toBe('video/*');
    expect(await frame.getByRole('button', { name: 'Record the screen' }).count()).toBe(0);
  });

  it('a refused camera says so, and the file choice stays', async () => {
    const refusing = await launchBrowser(REFUSING);
    try {
      const { frame } = await openUploader(refusing, await world.registerVideo());
      await frame.getByRole('button', { name: 'Record with camera' }).click();
      await frame.getByRole('alert').getByText('The camera or microphone was not allowed', { exact: false }).waitFor({ timeout: 10_000 });
      await frame.getByRole('button', { name: 'Choose a video file' }).waitFor();
    } finally {
      await refusing.close();
    }
  });
});

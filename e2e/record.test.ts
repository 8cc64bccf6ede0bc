import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_CAMERA_ARGS, launchBrowser } from './support/browser';
import { openButton, uploadFrame, waitForEvents } from './support/widget';
import { startServiceWorld, type ServiceWorld } from './support/world';

/** The same camera, but every permission prompt answered No, as a person who refuses. */
const REFUSING = ['--use-fake-device-for-media-stream', '--deny-permission-prompts'];
/** Until transcoding ends; generous because the machine's 2 cores are shared. */
const PROCESSING_TIMEOUT = 100_000;

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

/** Record with camera, Start, 3-2-1: returns the page's clock when the status line says Recording. */
async function startRecording(frame: Frame): Promise<number> {
  await frame.getByRole('button', { name: 'Record with camera' }).click();
  await frame.getByRole('button', { name: 'Start recording' }).click();
  await frame.getByRole('status').getByText('Recording', { exact: true }).waitFor({ timeout: 10_000 });
  return Date.now();
}

/** sha256 and size of the take the review plays: the bytes the recorder produced. */
function takeDigest(frame: Frame): Promise<{ sha256: string; size: number }> {
  return frame.evaluate(async () => {
    const video = document.querySelector<HTMLVideoElement>('video[src^="blob:"]')!;
    const bytes = await (await fetch(video.src)).arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return { sha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join(''), size: bytes.byteLength };
  });
}

/**
 * The take's length as Chromium's own demuxer finds it in the review's video: MediaRecorder writes
 * no duration, so the browser learns it by seeking past the end. This, not the test's clock (which
 * sees Recording and Stop only as fast as the driver polls), is the recorded length.
 */
function takeSeconds(frame: Frame): Promise<number> {
  return frame.evaluate(async () => {
    const video = document.querySelector<HTMLVideoElement>('video[src^="blob:"]')!;
    if (video.readyState < 1) await new Promise((ready) => video.addEventListener('loadedmetadata', ready, { once: true }));
    video.currentTime = Number.MAX_SAFE_INTEGER;
    for (let tries = 0; !Number.isFinite(video.duration) && tries < 100; tries++) await new Promise((wake) => setTimeout(wake, 50));
    return video.duration;
  });
}

const wait = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

describe('recording with the camera', () => {
  it('uploads while recording: most bytes are on the service before Stop, and the video plays with its real duration', async () => {
    const videoId = await world.registerVideo();
    const { page, frame } = await openUploader(browser, videoId, true);
    const started = await startRecording(frame);
    await wait(10_000);
    const beforeStop = await world.storedUploadBytes(videoId);
    await frame.getByRole('button', { name: 'Stop' }).click();
    const clock = (Date.now() - started) / 1000;
    await frame.getByRole('button', { name: 'Upload' }).waitFor();
    const take = await takeDigest(frame);
    const length = await takeSeconds(frame);
    expect(Math.abs(length - clock), `the take lasts ${length} s, the test's clock saw ${clock} s`).toBeLessThan(1.5);
    expect(beforeStop, `${beforeStop} of ${take.size} bytes before Stop`).toBeGreaterThan(take.size / 2);

    await frame.getByRole('button', { name: 'Upload' }).click();
    const [success] = await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    expect(success).toMatchObject({ type: 'success', info: { videoId, fileSize: take.size } });
    expect(success?.type === 'success' && success.info.fileName).toMatch(/^recording-\d{4}-\d{2}-\d{2}-\d{4}\.webm$/);
    await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);
    const { Video } = await world.getVideo(videoId);
    expect(Video.Status).toBe(1);
    expect(Math.abs(Number(Video.Duration) - length), `Duration ${Video.Duration}, recorded ${length}`).toBeLessThan(0.5);
    expect(await world.sourceSha256(videoId)).toBe(take.sha256);
  });

  it('Record again (by keyboard, 320 CSS px wide) deletes what was sent while recording: nothing is left on the service', async () => {
    const videoId = await world.registerVideo();
    const { page, frame } = await openUploader(browser, videoId, false, { width: 320, height: 640 });
    await startRecording(frame);
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
    await startRecording(frame);
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

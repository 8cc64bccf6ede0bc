import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, tabCaptureArgs } from './support/browser';
import { reviewTake, startRecording, uploadTake } from './support/recording';
import { openButton, uploadFrame } from './support/widget';
import { startServiceWorld, type ServiceWorld } from './support/world';

/** The tab "Record the screen" shares: Chromium picks it by this title, as a person would in its picker. */
const SHARED_TITLE = 'Slides shared by the screen recording test';
/**
 * A full green page with a square that never stops moving: a tab's capture sends frames only when
 * its picture changes, and the colour shows that the take is this tab, not a fake screen.
 */
const SHARED_PAGE = `<title>${SHARED_TITLE}</title>
<style>
  html, body { margin: 0; height: 100%; background: rgb(0, 160, 80); }
  div { width: 80px; height: 80px; background: white; animation: slide 1s linear infinite alternate; }
  @keyframes slide { to { transform: translateX(400px); } }
</style>
<div></div>`;

let world: ServiceWorld;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  world = await startServiceWorld();
  browser = await launchBrowser(tabCaptureArgs(SHARED_TITLE));
});
afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await world?.stop();
});
afterEach(() => context?.close());

/**
 * The tab to share, then the host page with the uploader open (a second tab, in front). The page's
 * CSP (connect-src) would refuse the test's reading of the take through its blob: URL: bypassed.
 */
async function openUploader(videoId: string): Promise<{ shared: Page; page: Page; frame: Frame }> {
  context = await browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 800 }, bypassCSP: true });
  const shared = await context.newPage();
  await shared.setContent(SHARED_PAGE);
  const page = await context.newPage();
  await page.goto(
    world.hostUrl('/overlay.html', { ...world.widgetAuth(videoId), sources: ['file', 'screen'], uploadWhileRecording: true }),
  );
  await openButton(page).click();
  return { shared, page, frame: await uploadFrame(page) };
}

/** The colour in the middle of the take's lower right quarter, one second in: the shared page's background, far from its square. */
function takeColour(frame: Frame): Promise<[number, number, number]> {
  return frame.evaluate(async () => {
    const video = document.querySelector<HTMLVideoElement>('video[src^="blob:"]')!;
    const seeked = new Promise((done) => video.addEventListener('seeked', done, { once: true }));
    video.currentTime = 1;
    await seeked;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const drawing = canvas.getContext('2d')!;
    drawing.drawImage(video, 0, 0);
    const [red, green, blue] = drawing.getImageData(Math.round(canvas.width * 0.75), Math.round(canvas.height * 0.75), 1, 1).data;
    return [red!, green!, blue!];
  });
}

/**
 * Until the first of the recording is on the service: the upload follows the recording. On a busy
 * machine a tab's recorder hands its first chunk over seconds after Recording shows (with the
 * right timestamps: the take still starts at Recording), so the test waits for it, not a set time.
 */
async function recordingReachesService(videoId: string): Promise<void> {
  await expect.poll(async () => (await world.storedUploadBytes(videoId)) ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
}

/** Within a codec's rounding of the shared page's rgb(0, 160, 80). */
function isSharedGreen([red, green, blue]: [number, number, number]): boolean {
  return red < 40 && Math.abs(green - 160) < 40 && Math.abs(blue - 80) < 40;
}

describe('recording the screen (a tab)', () => {
  it('records the chosen tab while uploading it: onSuccess, and the video plays with the recorded length', async () => {
    const videoId = await world.registerVideo();
    const { page, frame } = await openUploader(videoId);
    const started = await startRecording(frame, 'Record the screen');
    await recordingReachesService(videoId);
    await sleep(2_000);
    await frame.getByRole('button', { name: 'Stop' }).click();
    const clock = (Date.now() - started) / 1000;
    const take = await reviewTake(frame, clock);
    const colour = await takeColour(frame);
    expect(isSharedGreen(colour), `the take shows rgb(${colour.join(', ')})`).toBe(true);

    await uploadTake(world, page, frame, videoId, take);
  });

  it('closing the shared tab stops the recording and keeps what it has, which uploads and plays', async () => {
    const videoId = await world.registerVideo();
    const { shared, page, frame } = await openUploader(videoId);
    const started = await startRecording(frame, 'Record the screen');
    await recordingReachesService(videoId);
    await sleep(1_000);
    await shared.close();
    const clock = (Date.now() - started) / 1000;
    await frame.getByRole('alert').getByText('the sharing ended', { exact: false }).waitFor({ timeout: 10_000 });
    const take = await reviewTake(frame, clock);

    await uploadTake(world, page, frame, videoId, take);
  });
});

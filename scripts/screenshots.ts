/**
 * `npm run screenshots` (after `npm run build`): PNGs of the real widget in Chromium, for
 * docs/widget.md: idle, preview while uploading, paused, the error page, dark, zh-TW, a phone and
 * a recording (Chromium's fake camera).
 * It runs the e2e tier's world (the service, a host page, Debian's Chromium), all on loopback.
 * Small viewports at 1× keep each PNG small.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { FAKE_CAMERA_ARGS, launchBrowser, throttleUploads } from '../e2e/support/browser';
import { makeVideo, removeVideo } from '../e2e/support/media';
import { chooseFile, openButton, openPopup, uploadFrame, waitForProgress } from '../e2e/support/widget';
import { startWorld, type World } from '../e2e/support/world';

const OUT = resolve(import.meta.dirname, '../docs/screenshots');
const VIEWPORT = { width: 560, height: 440 };

async function popupFor(world: World, context: BrowserContext, config: object): Promise<Page> {
  const host = await world.openHostPage(context, '/popup.html', { ...world.widgetAuth(await world.registerVideo()), ...config });
  const popup = await openPopup(host);
  await popup.setViewportSize(VIEWPORT);
  await popup.waitForLoadState('load');
  return popup;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: resolve(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

mkdirSync(OUT, { recursive: true });
const world = await startWorld();
const video = await makeVideo({ seconds: 8, bitrate: 4_000_000 }, 'holiday.mp4');
try {
  const light = await world.browser.newContext({ locale: 'en-US', viewport: VIEWPORT, colorScheme: 'light' });
  const idle = await popupFor(world, light, {});
  await idle.getByRole('button', { name: 'Choose a video file' }).waitFor();
  await shoot(idle, 'idle');

  await throttleUploads(light, idle, 256 * 1024);
  await chooseFile(idle, video);
  await idle.getByRole('img', { name: /A frame of/ }).waitFor();
  await waitForProgress(idle, 20);
  await shoot(idle, 'uploading-preview');
  await idle.getByRole('button', { name: 'Pause' }).click();
  await idle.getByRole('button', { name: 'Resume' }).waitFor();
  await shoot(idle, 'paused');

  const error = await popupFor(world, light, { token: '0123456789abcdef0123456789abcdef' });
  await error.getByRole('heading', { level: 1 }).waitFor();
  await shoot(error, 'error-page');
  await light.close();

  const dark = await world.browser.newContext({ locale: 'en-US', viewport: VIEWPORT, colorScheme: 'dark' });
  const night = await popupFor(world, dark, {});
  await night.getByRole('button', { name: 'Choose a video file' }).waitFor();
  await shoot(night, 'dark');
  await dark.close();

  const taiwan = await world.browser.newContext({ locale: 'zh-TW', viewport: VIEWPORT });
  const traditional = await popupFor(world, taiwan, { lang: 'zh-TW' });
  await traditional.getByRole('button', { name: '選擇影片檔案' }).waitFor();
  await shoot(traditional, 'zh-TW');
  await taiwan.close();

  const phone = await world.browser.newContext({ locale: 'en-US', viewport: { width: 375, height: 667 }, hasTouch: true });
  const page = await phone.newPage();
  await page.goto(world.hostUrl('/overlay.html', world.widgetAuth(await world.registerVideo())));
  await openButton(page).click();
  await (await uploadFrame(page)).getByRole('button', { name: 'Choose a video file' }).waitFor();
  await shoot(page, 'mobile');
  await phone.close();

  const camera = await launchBrowser(FAKE_CAMERA_ARGS);
  const recorder = await popupFor(world, await camera.newContext({ locale: 'en-US', viewport: VIEWPORT }), {
    sources: ['file', 'camera', 'screen'],
    uploadWhileRecording: true,
  });
  await recorder.getByRole('button', { name: 'Record with camera' }).click();
  await recorder.getByRole('button', { name: 'Start recording' }).click();
  // A few seconds in, with the time and size so far.
  await recorder.getByText(/^[3-9] s · /).waitFor({ timeout: 15_000 });
  await shoot(recorder, 'recording');
  await camera.close();
} finally {
  removeVideo(video);
  await world.stop();
}

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo, removeVideo, sha256File } from './support/media';
import { waitForEvents } from './support/widget';
import { startWorld, type World } from './support/world';

let world: World;
let video: string;
let context: BrowserContext;

beforeAll(async () => {
  world = await startWorld();
  video = await makeVideo({ seconds: 2, bitrate: 1_000_000 }, 'keys.mp4');
});
afterAll(async () => {
  await world?.stop();
  removeVideo(video);
});
afterEach(() => context?.close());

/** The accessible name of the focused element, as a screen reader would announce it. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

/** Presses Tab until the control named `name` has focus (a bounded number of times). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 12; i++) {
    if ((await focused(page)) === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached "${name}"; focus is on "${await focused(page)}"`);
}

describe('keyboard only', () => {
  it('opens the popup, chooses a file, uploads and closes without a pointer', async () => {
    context = await world.browser.newContext({ locale: 'en-US' });
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/popup.html', world.widgetAuth(videoId));

    await tabTo(page, 'Open upload');
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
    await popup.getByRole('button', { name: 'Choose a video file' }).waitFor();
    await tabTo(popup, 'Choose a video file');
    // Only the operating system's file dialog itself is answered by the test. Playwright starts
    // intercepting file dialogs when a listener is added, by a command to the page; a round trip
    // to the same page makes sure it took effect before the key is pressed (a click's own checks
    // give it that time, a key press does not).
    const chooserOpened = popup.waitForEvent('filechooser');
    await popup.evaluate(() => document.readyState);
    await popup.keyboard.press('Enter');
    const chooser = await chooserOpened;
    await chooser.setFiles(video);

    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await popup.getByRole('button', { name: 'Close' }).waitFor();
    expect(await focused(popup), 'focus waits on Close after the success').toBe('Close');
    // Key-down only: Enter closes the window, and a key-up sent to a closed window would fail.
    await Promise.all([popup.waitForEvent('close'), popup.keyboard.down('Enter')]);
    expect(await world.sourceSha256(videoId)).toBe(await sha256File(video));
  });
});

describe('reduced motion', () => {
  const barTransition = async (reducedMotion: 'reduce' | 'no-preference') => {
    context = await world.browser.newContext({ locale: 'en-US', reducedMotion });
    const page = await world.openHostPage(context, '/popup.html', world.widgetAuth(await world.registerVideo()));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open upload' }).click()]);
    await popup.getByRole('button', { name: 'Choose a video file' }).waitFor();
    // The bar exists only while uploading; its rule is read from a detached element of the same class.
    const duration = await popup.evaluate(() => {
      const fill = document.createElement('div');
      fill.className = 'fill';
      document.body.append(fill);
      const value = getComputedStyle(fill).transitionDuration;
      fill.remove();
      return value;
    });
    await context.close();
    return duration;
  };

  it('the progress bar animates only when the system allows motion', async () => {
    expect(await barTransition('no-preference')).toBe('0.2s');
    expect(await barTransition('reduce')).toBe('0s');
  });
});

/**
 * The recipes of docs/testing-your-integration.md, run as an integrator's own test would run them:
 * nothing from our test helpers reaches into the widget, only the selectors the page documents.
 */
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext } from './support/browser';
import { makeVideo, removeVideo } from './support/media';
import { openButton, waitForOutcome } from './support/widget';
import { startWorld, type World } from './support/world';

let world: World;
let context: BrowserContext;
let clip: string;

beforeAll(async () => {
  [world, clip] = await Promise.all([startWorld(), makeVideo({ seconds: 2, bitrate: 500_000 }, 'recipe.mp4')]);
  context = await newContext(world.browser);
});
afterAll(async () => {
  await context?.close();
  await world?.stop();
  if (clip) removeVideo(clip);
});

describe("an integrator's browser test", () => {
  it('reaches the overlay through its open shadow root and uploads with the documented Playwright recipe', async () => {
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/overlay.html', world.widgetAuth(videoId));
    await openButton(page).click();

    // docs/testing-your-integration.md, Playwright: CSS locators pierce open shadow roots.
    const uploader = page.frameLocator('open-upload-overlay iframe');
    await uploader.locator('input[type=file]').setInputFiles(clip);
    await uploader.getByText('“recipe.mp4” was uploaded.').waitFor();

    expect(await waitForOutcome(page)).toEqual({ resolved: expect.objectContaining({ videoId, fileName: 'recipe.mp4' }) });
    expect((await world.video(videoId))?.sourceFile).toBeTruthy();
  });

  it('finds the iframe with plain DOM calls, as Selenium and Cypress do (shadowRoot, then the frame)', async () => {
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/overlay.html', world.widgetAuth(videoId));
    await openButton(page).click();
    await page.locator('open-upload-overlay').waitFor({ state: 'attached' });
    // What `driver.findElement(By.css('open-upload-overlay')).getShadowRoot().findElement(By.css('iframe'))` sees.
    const src = await page.evaluate(() => document.querySelector('open-upload-overlay')?.shadowRoot?.querySelector('iframe')?.src);
    expect(new URL(src!).origin).toBe(new URL(world.service.address).origin);
  });
});

/**
 * The framework wrappers as apps use them: each fixture (test/consumers/react, …/element)
 * installs the packed tarball, type-checks, builds with Vite, and uploads one video in Chromium
 * from its own origin.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFixture, type InstalledFixture } from '../test/support/consumers';
import { newContext } from './support/browser';
import type { LoopbackServer } from './support/httpServer';
import { fileSize, makeVideo, removeVideo } from './support/media';
import { serveBuilt } from './support/staticSite';
import { chooseFile, openButton, openPopup, uploadFrame, waitForEvents } from './support/widget';
import { APP_B, startWorld, type World } from './support/world';

let react: InstalledFixture;
let element: InstalledFixture;
let world: World;
let context: BrowserContext;
let clip: string;
const sites: LoopbackServer[] = [];

beforeAll(async () => {
  // One at a time: each install runs npm on the small machine.
  react = await installFixture('react');
  element = await installFixture('element');
  [world, clip] = await Promise.all([startWorld(), makeVideo({ seconds: 2, bitrate: 500_000 })]);
  context = await newContext(world.browser);
});

afterAll(async () => {
  await context?.close();
  await Promise.all(sites.map((site) => site.close()));
  await world?.stop();
  react?.remove();
  element?.remove();
  removeVideo(clip);
});

/** Type-checks and builds the fixture, serves the build and opens it with a fresh video's signed config in the hash. */
async function openBuiltApp(fixture: InstalledFixture): Promise<{ page: Page; videoId: string }> {
  await fixture.run('npm', ['run', 'typecheck']);
  await fixture.run('npm', ['run', 'build']);
  const site = await serveBuilt(join(fixture.dir, 'dist'));
  sites.push(site);
  const videoId = await world.registerVideo(APP_B, 'from a wrapper fixture');
  const config = { ...world.widgetAuth(videoId, APP_B), serviceUrl: world.service.address };
  const page = await context.newPage();
  await page.goto(`http://localhost:${site.port}/#${encodeURIComponent(JSON.stringify(config))}`);
  return { page, videoId };
}

async function expectUploaded(page: Page, videoId: string): Promise<void> {
  const [success] = await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
  expect(success).toEqual({ type: 'success', info: { videoId, fileName: 'clip.mp4', fileSize: fileSize(clip) } });
  expect((await world.video(videoId))?.status).not.toBe(8);
}

describe('a React app with open-video-upload/react', () => {
  it('uploads through <VideoUploadButton>, whose label follows the upload', async () => {
    const { page, videoId } = await openBuiltApp(react);
    await openButton(page).click();
    await expect.poll(() => page.getByRole('button', { name: 'Uploader open' }).isDisabled()).toBe(true);
    await chooseFile(await uploadFrame(page), clip);
    await expectUploaded(page, videoId);
    await expect.poll(() => page.getByRole('button', { name: 'Uploaded clip.mp4' }).count()).toBe(1);
  });
});

describe('a page with <video-upload> from open-video-upload/element', () => {
  it('uploads through the element’s popup, styled from outside by ::part(button)', async () => {
    const { page, videoId } = await openBuiltApp(element);
    const background = await openButton(page).evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(background).toBe('rgb(15, 118, 110)');
    const popup = await openPopup(page);
    await chooseFile(popup, clip);
    await expectUploaded(page, videoId);
    expect(await page.locator('video-upload').getAttribute('state')).toBe('done');
  });
});

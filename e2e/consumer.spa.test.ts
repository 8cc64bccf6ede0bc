import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFixture, type InstalledFixture } from '../test/support/consumers';
import { newContext } from './support/browser';
import type { LoopbackServer } from './support/httpServer';
import { fileSize, makeVideo, removeVideo } from './support/media';
import { serveBuilt } from './support/staticSite';
import { chooseFile, openButton, uploadFrame, waitForEvents } from './support/widget';
import { APP_B, startWorld, type World } from './support/world';

let fixture: InstalledFixture;
let world: World;
let spa: LoopbackServer;
let context: BrowserContext;
let clip: string;

beforeAll(async () => {
  [fixture, world, clip] = await Promise.all([installFixture('spa'), startWorld(), makeVideo({ seconds: 2, bitrate: 500_000 })]);
  context = await newContext(world.browser);
});

afterAll(async () => {
  await context?.close();
  await spa?.close();
  await world?.stop();
  fixture?.remove();
  removeVideo(clip);
});

describe('a Vite + TypeScript app that installed the packed tarball', () => {
  it('type-checks the README import under nodenext, bundler and node10, and builds with Vite', async () => {
    await fixture.run('npm', ['run', 'typecheck']);
    await fixture.run('npm', ['run', 'build']);
    const html = readFileSync(join(fixture.dir, 'dist/index.html'), 'utf8');
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
  });

  it('uploads a video through openUpload in Chromium, from another origin than the service', async () => {
    spa = await serveBuilt(join(fixture.dir, 'dist'));
    const videoId = await world.registerVideo(APP_B, 'from the consumer SPA');
    const config = { ...world.widgetAuth(videoId, APP_B), serviceUrl: world.service.address };
    const page = await context.newPage();
    await page.goto(`http://localhost:${spa.port}/#${encodeURIComponent(JSON.stringify(config))}`);
    expect(new URL(page.url()).origin).not.toBe(new URL(world.service.address).origin);

    await openButton(page).click();
    await chooseFile(await uploadFrame(page), clip);
    const [success] = await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    expect(success).toEqual({ type: 'success', info: { videoId, fileName: 'clip.mp4', fileSize: fileSize(clip) } });
    expect((await world.video(videoId))?.status).not.toBe(8);
  });
});

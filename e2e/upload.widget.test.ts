import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccessibleQuery, clickBox, clickClosingFrame } from './support/a11y';
import { newContext } from './support/browser';
import { HANDLE_DB } from '../src/widget/uploader/fileHandles';
import { makeVideo, probeDuration, removeVideo } from './support/media';
import {
  BIG_VIDEO,
  MEDIUM_VIDEO,
  closeMidUpload,
  expectContinuedFrom,
  expectStoredIntact,
  throttledOverlayUpload,
  throttledPopup,
} from './support/uploadSteps';
import {
  CLOSE_NAME,
  DIALOG_NAME,
  chooseFile,
  errorLineOf,
  openPopup,
  recordTusRequests,
  waitForEvents,
  waitForProgress,
} from './support/widget';
import { startWorld, type World } from './support/world';

// What the uploader shows and keeps in the browser while it uploads. No store changes it, so this
// file runs once, on SQLite and disk; what the store keeps and hands back runs on PostgreSQL + S3
// as well, in e2e/upload.scaled.test.ts (its cancel, reload and other-profile tests also cut
// uploads and continue them from the stored offset there).

let world: World;
let context: BrowserContext;
let bigVideo: string;
let mediumVideo: string;

beforeAll(async () => {
  world = await startWorld();
  bigVideo = await makeVideo(BIG_VIDEO.options, BIG_VIDEO.name);
  mediumVideo = await makeVideo(MEDIUM_VIDEO.options, MEDIUM_VIDEO.name);
});
afterAll(async () => {
  await world?.stop();
  removeVideo(bigVideo);
  removeVideo(mediumVideo);
});
beforeEach(async () => {
  context = await newContext(world.browser);
});
afterEach(() => context?.close());

const hostPage = (path: string, config: object): Promise<Page> => world.openHostPage(context, path, config);

describe('a video that already has a file', () => {
  it('refuses a second file for a video that already has one (error page on reopening)', async () => {
    const videoId = await world.registerVideo();
    const first = await hostPage('/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(first);
    await chooseFile(popup, mediumVideo);
    await waitForEvents(first, (list) => list.some((event) => event.type === 'success'));
    await popup.close();

    const again = await openPopup(await hostPage('/popup.html', world.widgetAuth(videoId)));
    await again.waitForLoadState('load');
    expect(errorLineOf(await again.locator('body').innerText())).toMatch(/^ErrorCode : 107, ErrorMessage : Video Status Error(: .+)?$/);
  });
});

describe('the transport loads after the file input', () => {
  it('a file chosen while tus-js-client is still loading is uploaded once it arrives', async () => {
    const videoId = await world.registerVideo();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/UploadWidget\/assets\/uploadCore-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const page = await hostPage('/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(page);
    await chooseFile(popup, mediumVideo);
    await popup.getByRole('button', { name: 'Pause' }).waitFor();
    expect(await world.storedUploadBytes(videoId), 'nothing sent before the transport is there').toBeNull();
    release();
    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await expectStoredIntact(world, videoId, mediumVideo);
  });
});

describe('preview', () => {
  it("shows a poster frame, the duration (within 0.1 s of ffprobe's) and the resolution of an H.264 MP4 while it uploads", async () => {
    const { frame } = await throttledOverlayUpload(world, context, bigVideo, 1);
    const poster = frame.getByRole('img', { name: `A frame of “${BIG_VIDEO.name}”` });
    await poster.waitFor();
    expect(await poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const caption = await frame.locator('figure.preview figcaption').innerText();
    expect(caption).toMatch(/^0:12 · 640 × 360$/);
    const exact = Number(/^PT([\d.]+)S$/.exec((await frame.locator('figure.preview time').getAttribute('datetime'))!)![1]);
    expect(Math.abs(exact - (await probeDuration(bigVideo)))).toBeLessThanOrEqual(0.1);
    expect(await frame.getByRole('button', { name: 'Pause' }).count(), 'still uploading').toBe(1);
  });
});

describe('closing mid-upload asks first', () => {
  it('× during an upload asks inside the uploader; "Keep uploading" goes on, "Stop and close" closes, reports "closed" and keeps the bytes', async () => {
    const { videoId, page, frame, progress: before } = await throttledOverlayUpload(world, context, bigVideo, 10);

    const ax = await AccessibleQuery.open(context, page);
    await clickBox(page, await ax.box('button', CLOSE_NAME));
    const question = frame.getByRole('alertdialog');
    await question.waitFor();
    expect(await question.innerText()).toMatch(/^Stop uploading\? You can continue later from \d+%\./);
    await frame.getByRole('button', { name: 'Keep uploading' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await ax.count('dialog', DIALOG_NAME), 'the widget stays open').toBe(1);
    expect(await waitForProgress(frame, before + 10)).toBeGreaterThan(before);

    await clickBox(page, await ax.box('button', CLOSE_NAME));
    await clickClosingFrame(page, frame.getByRole('button', { name: 'Stop and close' }));
    await ax.waitFor('dialog', DIALOG_NAME, false);
    const list = await waitForEvents(page, (all) => all.length > 0);
    expect(list).toEqual([{ type: 'failure', info: expect.objectContaining({ videoId, reason: 'closed' }) }]);
    // In S3 the bytes of a cut PATCH short of a part are saved after the cut (`<id>.part`): a busy
    // bucket may take a moment, and until then the upload holds none.
    await expect
      .poll(() => world.storedUploadBytes(videoId), { message: 'the service kept the bytes', timeout: 15_000 })
      .toBeGreaterThan(0);
    await ax.close();
  });
});

describe('the popup keeps the file handle', () => {
  it('reopened for an unfinished upload, it continues from the kept handle with no file dialog, sending only the missing bytes', async () => {
    const { videoId, page, popup: first } = await throttledPopup(world, context, 1024 * 1024);
    await chooseFile(first, bigVideo);
    await waitForProgress(first, 20);
    await closeMidUpload(world, () => first.close());
    await waitForEvents(page, (list) => list.length > 0);

    // Chromium in tests has no way to answer showOpenFilePicker, so the handle the picker would have
    // given is made the other way the API offers one: a file in the origin's private file system,
    // kept where the uploader keeps handles (fileHandles.ts, HANDLE_DB).
    const popup = await openPopup(page);
    await popup.getByText(/Choose the same file to continue/).waitFor();
    await popup.evaluate(() => document.body.append(Object.assign(document.createElement('input'), { type: 'file', id: 'seed' })));
    await popup.setInputFiles('#seed', bigVideo);
    await popup.evaluate(
      async ({ videoId, db }) => {
        const file = (document.getElementById('seed') as HTMLInputElement).files![0]!;
        const handle = await (await navigator.storage.getDirectory()).getFileHandle(file.name, { create: true });
        const writable = await handle.createWritable();
        await writable.write(file);
        await writable.close();
        await new Promise<void>((done, fail) => {
          const open = indexedDB.open(db.name, 1);
          open.onupgradeneeded = () => open.result.createObjectStore(db.store);
          open.onerror = () => fail(open.error);
          open.onsuccess = () => {
            const put = open.result.transaction(db.store, 'readwrite').objectStore(db.store).put(handle, videoId);
            put.onsuccess = () => done();
            put.onerror = () => fail(put.error);
          };
        });
      },
      { videoId, db: HANDLE_DB },
    );
    const stored = (await world.storedUploadBytes(videoId))!;
    const tus = recordTusRequests(context, world.service.address);
    await popup.reload();
    await popup.getByRole('button', { name: `Continue “${BIG_VIDEO.name}” from` }).click();
    await expectContinuedFrom(world, page, videoId, bigVideo, tus, stored);
  });
});

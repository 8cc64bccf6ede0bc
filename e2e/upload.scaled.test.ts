import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccessibleQuery, clickBox, clickClosingFrame } from './support/a11y';
import { newContext, throttleUploads } from './support/browser';
import { HANDLE_DB } from '../src/widget/uploader/fileHandles';
import { fileSize, makeVideo, probeDuration, sha256File, removeVideo } from './support/media';
import {
  CLOSE_NAME,
  DIALOG_NAME,
  chooseFile,
  errorLineOf,
  openButton,
  openPopup,
  progressPercent,
  recordSentBodies,
  recordTusRequests,
  sentBodies,
  uploadFrame,
  waitForEvents,
  waitForProgress,
} from './support/widget';
import { startWorld, type World } from './support/world';

/** Status after the upload: waiting for transcoding, or further along once processing picked it up. */
const STORED_OR_LATER = [5, 6, 1];

let world: World;
let context: BrowserContext;
/**
 * About 12 MB: more than one 8 MiB tus chunk. Its name goes beyond ASCII: the uploader sends it
 * as tus metadata (UTF-8 in base64, tusPlatform.ts), and the service names it back in the resume hint.
 */
const BIG_NAME = 'big clip – été 東京.mp4';
let bigVideo: string;
/** About 6 MB, for the throttled tests. */
let mediumVideo: string;

beforeAll(async () => {
  world = await startWorld();
  bigVideo = await makeVideo({ seconds: 12, bitrate: 8_000_000 }, BIG_NAME);
  mediumVideo = await makeVideo({ seconds: 6, bitrate: 8_000_000 }, 'medium.mp4');
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

async function expectStoredIntact(videoId: string, original: string): Promise<void> {
  expect((await world.video(videoId))?.sourceFile, 'the service recorded a source file').toBe('source.mp4');
  expect(await world.sourceSha256(videoId)).toBe(await sha256File(original));
}

describe('a real multi-megabyte video through the widget', () => {
  it('arrives byte-identical, fires onSuccess exactly once, and the video moves on from status 8', async () => {
    expect(fileSize(bigVideo)).toBeGreaterThan(10 * 1024 * 1024);
    const videoId = await world.registerVideo();
    await recordSentBodies(context);
    const tus = recordTusRequests(context, world.service.address);
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    await openButton(page).click();
    const frame = await uploadFrame(page);
    await chooseFile(frame, bigVideo);

    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await frame.getByRole('status').filter({ hasText: 'was uploaded' }).waitFor();
    await expectStoredIntact(videoId, bigVideo);
    // The fast path: one PATCH whose body is the File itself, never a slice.
    const patches = (await tus.settle()).filter((request) => request.method === 'PATCH');
    expect(patches.map((request) => request.bodyBytes)).toEqual([fileSize(bigVideo)]);
    expect(await sentBodies(frame)).toEqual([{ kind: 'file', bytes: fileSize(bigVideo) }]);

    // Closing after success reports nothing more: the one outcome was the success.
    const ax = await AccessibleQuery.open(context, page);
    await clickBox(page, await ax.box('button', CLOSE_NAME));
    await ax.waitFor('dialog', DIALOG_NAME, false);
    expect(await waitForEvents(page, () => true)).toEqual([
      { type: 'success', info: { videoId, fileName: BIG_NAME, fileSize: fileSize(bigVideo) } },
    ]);

    const got = await world.getVideo(videoId);
    expect(got.AuthMsg.ResultCode).toBe('1');
    expect(STORED_OR_LATER).toContain(got.Video.Status);
  });

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

/** The upload succeeds byte-identical, continuing the stored upload at `stored` (no new creation). */
async function expectContinuedFrom(page: Page, videoId: string, tus: ReturnType<typeof recordTusRequests>, stored: number): Promise<void> {
  await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
  await expectStoredIntact(videoId, bigVideo);
  const requests = await tus.settle();
  tus.stop();
  expect(
    requests.filter((request) => request.method === 'POST'),
    'no new upload was created',
  ).toEqual([]);
  expect(requests.find((request) => request.method === 'PATCH')?.offset).toBe(stored);
}

/** A popup open for a new video, its uploads slowed to `bytesPerSecond`. */
/**
 * Ends the uploader's window (`close`) mid-upload with its request cut at the service at the same
 * moment. DevTools' upload throttling can let a request whose window is gone go on sending at full
 * speed, which finished the whole file in some runs, leaving nothing to resume.
 */
async function closeMidUpload(close: () => Promise<unknown>): Promise<void> {
  const endOutage = world.networkOutage();
  try {
    await close();
  } finally {
    endOutage();
  }
}

async function throttledPopup(bytesPerSecond: number) {
  const videoId = await world.registerVideo();
  const page = await hostPage('/popup.html', world.widgetAuth(videoId));
  const popup = await openPopup(page);
  return { videoId, page, popup, throttle: await throttleUploads(context, popup, bytesPerSecond) };
}

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
    await expectStoredIntact(videoId, mediumVideo);
  });
});

describe('pause and resume', () => {
  it('pausing stops the transfer; resuming continues from the stored offset and completes byte-identical', async () => {
    const { videoId, page, popup, throttle } = await throttledPopup(512 * 1024);
    const tus = recordTusRequests(context, world.service.address);
    await chooseFile(popup, mediumVideo);

    await waitForProgress(popup, 15);
    await popup.getByRole('button', { name: 'Pause' }).click();
    await popup.getByRole('button', { name: 'Resume' }).waitFor();
    const pausedAt = await progressPercent(popup);
    const storedAtPause = await world.storedUploadBytes(videoId);
    expect(storedAtPause, 'the service holds part of the file').toBeGreaterThan(0);
    expect(storedAtPause!).toBeLessThan(fileSize(mediumVideo));
    // While paused, nothing more is sent: the next request after this one is the resume's.
    const requestsAtPause = tus.list.length;

    await throttle.lift();
    await popup.getByRole('button', { name: 'Resume' }).click();
    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await expectStoredIntact(videoId, mediumVideo);

    const afterResume = (await tus.settle()).slice(requestsAtPause);
    const patches = afterResume.filter((request) => request.method === 'PATCH');
    expect(
      afterResume.filter((request) => request.method === 'POST'),
      'no new upload was created',
    ).toEqual([]);
    expect(patches.length).toBeGreaterThan(0);
    expect(patches[0]!.offset, 'resumed, not restarted').toBeGreaterThanOrEqual(storedAtPause!);
    // The resumed request is one slice from the service's offset to the end.
    expect(patches.map((request) => request.bodyBytes)).toEqual([fileSize(mediumVideo) - patches[0]!.offset!]);
    expect(pausedAt).toBeGreaterThanOrEqual(15);
    expect((await waitForEvents(page, () => true)).filter((event) => event.type === 'success')).toHaveLength(1);
  });
});

describe('cancel keeps the upload', () => {
  it("choosing the same file after Cancel continues from the service's offset, with no new upload", async () => {
    const videoId = await world.registerVideo();
    const size = fileSize(bigVideo);
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    await openButton(page).click();
    const frame = await uploadFrame(page);
    const throttle = await throttleUploads(context, frame, 1024 * 1024);
    await chooseFile(frame, bigVideo);
    await waitForProgress(frame, 30);
    await frame.getByRole('button', { name: 'Cancel' }).click();
    await frame
      .getByText(/Choose the same file to continue/)
      .first()
      .waitFor();
    // Bytes already on the wire when Cancel aborted the request still land; this reads them once they have.
    const stored = (await world.storedUploadBytes(videoId))!;
    expect(stored, 'the service kept the bytes that arrived').toBeGreaterThan(0.2 * size);
    expect(stored).toBeLessThan(size);

    await throttle.lift();
    const tus = recordTusRequests(context, world.service.address);
    await chooseFile(frame, bigVideo);
    await expectContinuedFrom(page, videoId, tus, stored);
  });
});

/** The big video going up slowly (1 MB/s) through the overlay, once at least `percent` is sent. */
async function throttledOverlayUpload(percent: number) {
  const videoId = await world.registerVideo();
  const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
  await openButton(page).click();
  const frame = await uploadFrame(page);
  await throttleUploads(context, frame, 1024 * 1024);
  await chooseFile(frame, bigVideo);
  return { videoId, page, frame, progress: await waitForProgress(frame, percent) };
}

describe('preview', () => {
  it("shows a poster frame, the duration (within 0.1 s of ffprobe's) and the resolution of an H.264 MP4 while it uploads", async () => {
    const { frame } = await throttledOverlayUpload(1);
    const poster = frame.getByRole('img', { name: `A frame of “${BIG_NAME}”` });
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
    const { videoId, page, frame, progress: before } = await throttledOverlayUpload(10);

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

describe('discarding a stored upload', () => {
  it('asks first, then the service drops the bytes and nothing is offered to resume', async () => {
    const { videoId, frame } = await throttledOverlayUpload(10);
    await frame.getByRole('button', { name: 'Cancel' }).click();
    await frame.getByRole('button', { name: 'Discard upload' }).click();
    await frame.getByRole('alertdialog').waitFor();
    await expect
      .poll(() => world.storedUploadBytes(videoId), { message: 'nothing is dropped before the answer', timeout: 15_000 })
      .toBeGreaterThan(0);
    await frame.getByRole('alertdialog').getByRole('button', { name: 'Discard upload' }).click();
    await frame.getByText('The earlier upload was discarded.').waitFor();
    expect(await world.storedUploadBytes(videoId)).toBeNull();
    expect(await frame.getByText(/Choose the same file to continue/).count()).toBe(0);
  });
});

describe('the popup keeps the file handle', () => {
  it('reopened for an unfinished upload, it continues from the kept handle with no file dialog, sending only the missing bytes', async () => {
    const { videoId, page, popup: first } = await throttledPopup(1024 * 1024);
    await chooseFile(first, bigVideo);
    await waitForProgress(first, 20);
    await closeMidUpload(() => first.close());
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
    await popup.getByRole('button', { name: `Continue “${BIG_NAME}” from` }).click();
    await expectContinuedFrom(page, videoId, tus, stored);
  });
});

describe('resume after the host page is reloaded', () => {
  it('reopening the widget for the same video and choosing the same file sends only the bytes not yet stored', async () => {
    const videoId = await world.registerVideo();
    const size = fileSize(bigVideo);
    const page = await hostPage('/overlay.html', world.widgetAuth(videoId));
    await openButton(page).click();
    const frame = await uploadFrame(page);
    await throttleUploads(context, frame, 1024 * 1024);
    await chooseFile(frame, bigVideo);
    await waitForProgress(frame, 30);

    // The user reloads the page mid-upload: the iframe and its request die with it.
    await closeMidUpload(() => page.reload());
    const stored = await world.storedUploadBytes(videoId);
    expect(stored, 'the service kept the bytes that arrived').toBeGreaterThan(0.2 * size);
    expect(stored!).toBeLessThan(size);

    const tus = recordTusRequests(context, world.service.address);
    await page.goto(world.hostUrl('/overlay.html', world.widgetAuth(videoId)));
    await openButton(page).click();
    const reopened = await uploadFrame(page);
    await reopened.getByText(`An earlier upload of “${BIG_NAME}” stopped at`).waitFor();
    const storedBeforeChoosing = (await world.storedUploadBytes(videoId))!;
    await chooseFile(reopened, bigVideo);
    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await expectStoredIntact(videoId, bigVideo);

    const requests = await tus.settle();
    tus.stop();
    const patches = requests.filter((request) => request.method === 'PATCH');
    expect(
      requests.filter((request) => request.method === 'POST'),
      'no new upload was created',
    ).toEqual([]);
    expect(patches[0]?.offset).toBe(storedBeforeChoosing);
    const sent = patches.reduce((sum, request) => sum + request.bodyBytes, 0);
    expect(sent).toBe(size - storedBeforeChoosing);
  });
});

describe('resume state lives on the service', () => {
  it('an upload begun in a popup in one browser profile is finished from the overlay in another', async () => {
    const videoId = await world.registerVideo();
    const size = fileSize(bigVideo);
    const first = await hostPage('/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(first);
    await throttleUploads(context, popup, 1024 * 1024);
    await chooseFile(popup, bigVideo);
    await waitForProgress(popup, 25);
    await closeMidUpload(() => popup.close());
    await waitForEvents(first, (list) => list.length > 0);
    const stored = (await world.storedUploadBytes(videoId))!;
    expect(stored).toBeGreaterThan(0.15 * size);
    expect(stored).toBeLessThan(size);

    // A fresh context shares no storage with the first: only the service knows where the upload stopped.
    const other = await newContext(world.browser);
    try {
      const tus = recordTusRequests(other, world.service.address);
      const page = await other.newPage();
      await page.goto(world.hostUrl('/overlay.html', world.widgetAuth(videoId)));
      await openButton(page).click();
      const frame = await uploadFrame(page);
      await frame.getByText(/Choose the same file to continue/).waitFor();
      const storedBeforeChoosing = (await world.storedUploadBytes(videoId))!;
      expect(storedBeforeChoosing).toBeGreaterThanOrEqual(stored);
      await chooseFile(frame, bigVideo);
      await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
      await expectStoredIntact(videoId, bigVideo);
      const requests = await tus.settle();
      expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
      expect(requests.find((request) => request.method === 'PATCH')?.offset).toBe(storedBeforeChoosing);
    } finally {
      await other.close();
    }
  });
});

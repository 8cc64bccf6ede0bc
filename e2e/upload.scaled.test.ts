import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccessibleQuery, clickBox } from './support/a11y';
import { newContext, throttleUploads } from './support/browser';
import { fileSize, makeVideo, removeVideo } from './support/media';
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

// What an upload leaves in the store, and what a resumed one reads back from it: this file runs
// again on PostgreSQL + S3 (e2e-scaled). What the uploader shows and keeps in the browser,
// whichever store is behind it, runs once: e2e/upload.widget.test.ts.

/** Status after the upload: waiting for transcoding, or further along once processing picked it up. */
const STORED_OR_LATER = [5, 6, 1];

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
    await expectStoredIntact(world, videoId, bigVideo);
    // The fast path: one PATCH whose body is the File itself, never a slice.
    const patches = (await tus.settle()).filter((request) => request.method === 'PATCH');
    expect(patches.map((request) => request.bodyBytes)).toEqual([fileSize(bigVideo)]);
    expect(await sentBodies(frame)).toEqual([{ kind: 'file', bytes: fileSize(bigVideo) }]);

    // Closing after success reports nothing more: the one outcome was the success.
    const ax = await AccessibleQuery.open(context, page);
    await clickBox(page, await ax.box('button', CLOSE_NAME));
    await ax.waitFor('dialog', DIALOG_NAME, false);
    expect(await waitForEvents(page, () => true)).toEqual([
      { type: 'success', info: { videoId, fileName: BIG_VIDEO.name, fileSize: fileSize(bigVideo) } },
    ]);

    const got = await world.getVideo(videoId);
    expect(got.AuthMsg.ResultCode).toBe('1');
    expect(STORED_OR_LATER).toContain(got.Video.Status);
  });
});

describe('pause and resume', () => {
  it('pausing stops the transfer; resuming continues from the stored offset and completes byte-identical', async () => {
    const { videoId, page, popup, throttle } = await throttledPopup(world, context, 512 * 1024);
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
    await expectStoredIntact(world, videoId, mediumVideo);

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
    await expectContinuedFrom(world, page, videoId, bigVideo, tus, stored);
  });
});

describe('discarding a stored upload', () => {
  it('asks first, then the service drops the bytes and nothing is offered to resume', async () => {
    const { videoId, frame } = await throttledOverlayUpload(world, context, bigVideo, 10);
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
    await closeMidUpload(world, () => page.reload());
    const stored = await world.storedUploadBytes(videoId);
    expect(stored, 'the service kept the bytes that arrived').toBeGreaterThan(0.2 * size);
    expect(stored!).toBeLessThan(size);

    const tus = recordTusRequests(context, world.service.address);
    await page.goto(world.hostUrl('/overlay.html', world.widgetAuth(videoId)));
    await openButton(page).click();
    const reopened = await uploadFrame(page);
    await reopened.getByText(`An earlier upload of “${BIG_VIDEO.name}” stopped at`).waitFor();
    const storedBeforeChoosing = (await world.storedUploadBytes(videoId))!;
    await chooseFile(reopened, bigVideo);
    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await expectStoredIntact(world, videoId, bigVideo);

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
    await closeMidUpload(world, () => popup.close());
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
      await expectStoredIntact(world, videoId, bigVideo);
      const requests = await tus.settle();
      expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
      expect(requests.find((request) => request.method === 'PATCH')?.offset).toBe(storedBeforeChoosing);
    } finally {
      await other.close();
    }
  });
});

import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { throttleUploads } from './browser';
import { sha256File } from './media';
import { chooseFile, openButton, openPopup, recordTusRequests, uploadFrame, waitForEvents, waitForProgress } from './widget';
import type { World } from './world';

// Steps of the upload tests that run on every store (e2e/upload.scaled.test.ts) and of those about
// the uploader alone, which run once (e2e/upload.widget.test.ts).

/**
 * About 12 MB (more than one 8 MiB tus chunk). Its name goes beyond ASCII: the uploader sends it
 * as tus metadata (UTF-8 in base64, tusPlatform.ts), and the service names it back in the resume hint.
 */
export const BIG_VIDEO = { options: { seconds: 12, bitrate: 8_000_000 }, name: 'big clip – été 東京.mp4' } as const;
/** About 6 MB, for the throttled tests. */
export const MEDIUM_VIDEO = { options: { seconds: 6, bitrate: 8_000_000 }, name: 'medium.mp4' } as const;

export async function expectStoredIntact(world: World, videoId: string, original: string): Promise<void> {
  expect((await world.video(videoId))?.sourceFile, 'the service recorded a source file').toBe('source.mp4');
  expect(await world.sourceSha256(videoId)).toBe(await sha256File(original));
}

/** The upload succeeds byte-identical, continuing the stored upload at `stored` (no new creation). */
export async function expectContinuedFrom(
  world: World,
  page: Page,
  videoId: string,
  original: string,
  tus: ReturnType<typeof recordTusRequests>,
  stored: number,
): Promise<void> {
  await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
  await expectStoredIntact(world, videoId, original);
  const requests = await tus.settle();
  tus.stop();
  expect(
    requests.filter((request) => request.method === 'POST'),
    'no new upload was created',
  ).toEqual([]);
  expect(requests.find((request) => request.method === 'PATCH')?.offset).toBe(stored);
}

/**
 * Ends the uploader's window (`close`) mid-upload with its request cut at the service at the same
 * moment. DevTools' upload throttling can let a request whose window is gone go on sending at full
 * speed, which finished the whole file in some runs, leaving nothing to resume.
 */
export async function closeMidUpload(world: World, close: () => Promise<unknown>): Promise<void> {
  const endOutage = world.networkOutage();
  try {
    await close();
  } finally {
    endOutage();
  }
}

/** A popup open for a new video, its uploads slowed to `bytesPerSecond`. */
export async function throttledPopup(world: World, context: BrowserContext, bytesPerSecond: number) {
  const videoId = await world.registerVideo();
  const page = await world.openHostPage(context, '/popup.html', world.widgetAuth(videoId));
  const popup = await openPopup(page);
  return { videoId, page, popup, throttle: await throttleUploads(context, popup, bytesPerSecond) };
}

/** `video` going up slowly (1 MB/s) through the overlay, once at least `percent` is sent. */
export async function throttledOverlayUpload(world: World, context: BrowserContext, video: string, percent: number) {
  const videoId = await world.registerVideo();
  const page = await world.openHostPage(context, '/overlay.html', world.widgetAuth(videoId));
  await openButton(page).click();
  const frame = await uploadFrame(page);
  await throttleUploads(context, frame, 1024 * 1024);
  await chooseFile(frame, video);
  return { videoId, page, frame, progress: await waitForProgress(frame, percent) };
}

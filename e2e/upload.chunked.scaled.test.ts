import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newContext, throttleUploads } from './support/browser';
import { fileSize, makeVideo, sha256File, removeVideo } from './support/media';
import {
  openPopup,
  chooseFile,
  recordSentBodies,
  recordTusRequests,
  sentBodies,
  waitForEvents,
  waitForProgress,
  type RecordedEvent,
} from './support/widget';
import { startWorld, type World } from './support/world';

/** The operator's cap on request bodies (UPLOAD_CHUNK_BYTES), for a service behind a proxy that limits them. */
const CHUNK = 1024 * 1024;

let world: World;
let context: BrowserContext;
/** About 6 MB: several chunks. */
let video: string;

beforeAll(async () => {
  world = await startWorld({ env: { UPLOAD_CHUNK_BYTES: String(CHUNK) } });
  video = await makeVideo({ seconds: 6, bitrate: 8_000_000 }, 'chunked.mp4');
});
afterAll(async () => {
  await world?.stop();
  removeVideo(video);
});
beforeEach(async () => {
  context = await newContext(world.browser);
});
afterEach(() => context?.close());

async function expectStoredIntact(videoId: string): Promise<void> {
  expect(await world.sourceSha256(videoId)).toBe(await sha256File(video));
}

const only = (type: RecordedEvent['type']) => (list: RecordedEvent[]) => list.filter((event) => event.type === type);

describe('with UPLOAD_CHUNK_BYTES set', () => {
  it('no request body is larger than the limit, and the file arrives byte-identical', async () => {
    const videoId = await world.registerVideo();
    await recordSentBodies(context);
    const tus = recordTusRequests(context, world.service.address);
    const page = await world.openHostPage(context, '/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(page);
    await chooseFile(popup, video);
    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await expectStoredIntact(videoId);

    const patches = (await tus.settle()).filter((request) => request.method === 'PATCH');
    expect(patches.length).toBe(Math.ceil(fileSize(video) / CHUNK));
    expect(patches.every((request) => request.bodyBytes <= CHUNK)).toBe(true);
    expect(patches.map((request) => request.offset)).toEqual(patches.map((_, index) => index * CHUNK));
    const bodies = await sentBodies(popup);
    expect(bodies.every((body) => body.kind === 'blob' && body.bytes <= CHUNK)).toBe(true);
  });

  it('pausing stops the transfer; resuming continues from the stored offset, still in chunks', async () => {
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(page);
    const throttle = await throttleUploads(context, popup, 512 * 1024);
    const tus = recordTusRequests(context, world.service.address);
    await chooseFile(popup, video);
    await waitForProgress(popup, 30);
    await popup.getByRole('button', { name: 'Pause' }).click();
    await popup.getByRole('button', { name: 'Resume' }).waitFor();
    const storedAtPause = (await world.storedUploadBytes(videoId))!;
    expect(storedAtPause, 'whole chunks were confirmed before the pause').toBeGreaterThanOrEqual(CHUNK);
    const requestsAtPause = tus.list.length;

    await throttle.lift();
    await popup.getByRole('button', { name: 'Resume' }).click();
    await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
    await expectStoredIntact(videoId);
    const afterResume = (await tus.settle()).slice(requestsAtPause);
    const patches = afterResume.filter((request) => request.method === 'PATCH');
    expect(
      afterResume.filter((request) => request.method === 'POST'),
      'no new upload was created',
    ).toEqual([]);
    expect(patches[0]!.offset, 'resumed, not restarted').toBeGreaterThanOrEqual(storedAtPause);
    expect(patches.every((request) => request.bodyBytes <= CHUNK)).toBe(true);
    expect(only('success')(await waitForEvents(page, () => true))).toHaveLength(1);
  });

  it('an outage beyond the retries fires onError once; "Try again" completes the file from the confirmed chunks', async () => {
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/popup.html', world.widgetAuth(videoId));
    const popup = await openPopup(page);
    const throttle = await throttleUploads(context, popup, 512 * 1024);
    await chooseFile(popup, video);
    await waitForProgress(popup, 30);

    const endOutage = world.networkOutage();
    const list = await waitForEvents(page, (all) => all.length > 0, 90_000);
    expect(list).toEqual([expect.objectContaining({ type: 'error', info: expect.objectContaining({ videoId, reason: 'network' }) })]);
    const { bytesUploaded } = (list[0] as Extract<RecordedEvent, { type: 'error' }>).info;
    expect(bytesUploaded, 'the confirmed offset is a whole number of chunks').toBeGreaterThanOrEqual(CHUNK);
    expect(bytesUploaded! % CHUNK).toBe(0);

    endOutage();
    await throttle.lift();
    const tus = recordTusRequests(context, world.service.address);
    await popup.getByRole('button', { name: 'Try again' }).click();
    const after = await waitForEvents(page, (all) => all.some((event) => event.type === 'success'));
    expect(only('error')(after)).toHaveLength(1);
    await expectStoredIntact(videoId);
    const requests = await tus.settle();
    expect(
      requests.filter((request) => request.method === 'POST'),
      'no new upload was created',
    ).toEqual([]);
    expect(requests.find((request) => request.method === 'PATCH')!.offset).toBeGreaterThanOrEqual(bytesUploaded!);
  });
});

import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newContext } from './support/browser';
import { makeVideo, removeVideo } from './support/media';
import { chooseFile, errorLineOf, openButton, recordTusRequests, uploadFrame, waitForEvents, waitForOutcome } from './support/widget';
import { startWorld, type World } from './support/world';

// The page's restrictions (maxFileSize, accept, minDuration, maxDuration), applied by the
// uploader in real Chromium before a byte is sent: the duration as the browser's <video> reads it,
// the container by the file's first bytes. The clip has no sound, so its length is exactly 2 s.
let world: World;
let context: BrowserContext;
let clip: string;

beforeAll(async () => {
  [world, clip] = await Promise.all([startWorld(), makeVideo({ seconds: 2, bitrate: 500_000, width: 320, height: 180, audio: false })]);
});
afterAll(async () => {
  await world?.stop();
  removeVideo(clip);
});
beforeEach(async () => {
  context = await newContext(world.browser);
});
afterEach(() => context?.close());

async function openOverlay(options: object): Promise<{ page: Page; frame: Frame; videoId: string }> {
  const videoId = await world.registerVideo();
  const page = await world.openHostPage(context, '/overlay.html', { ...world.widgetAuth(videoId), ...options });
  await openButton(page).click();
  return { page, frame: await uploadFrame(page), videoId };
}

describe("the page's restrictions", () => {
  it.each([
    [
      'maxDuration',
      { maxDuration: 1 },
      'Length: at most 1 s.',
      'tooLong',
      '“clip.mp4” is 2 s long; this site takes videos of at most 1 s.',
    ],
    [
      'minDuration',
      { minDuration: 3 },
      'Length: at least 3 s.',
      'tooShort',
      '“clip.mp4” is 2 s long; this site takes videos of at least 3 s.',
    ],
    [
      'accept',
      { accept: ['webm', 'mov'] },
      'Formats: WebM, MOV.',
      'notAccepted',
      '“clip.mp4” is in the MP4 format; this site takes WebM, MOV only.',
    ],
    ['maxFileSize', { maxFileSize: 50_000 }, 'Video files up to 48.8 KiB.', 'tooLarge', '“clip.mp4” is larger than the limit of 48.8 KiB.'],
  ])(
    '%s: said before the choice; a file outside it is refused with the reason shown and reported, and no byte is sent',
    async (_name, options, hint, code, text) => {
      const { page, frame, videoId } = await openOverlay(options);
      await frame.getByText(hint).waitFor();
      const tus = recordTusRequests(context, world.service.address);
      await chooseFile(frame, clip);
      const [event] = await waitForEvents(page, (list) => list.length > 0);
      expect(event).toEqual({
        type: 'failure',
        info: { videoId, reason: 'rejected', code, message: text, fileName: 'clip.mp4', fileSize: expect.any(Number) },
      });
      expect(await frame.getByRole('alert').innerText()).toBe(text);
      // The duration is read from the file itself, before any request: the tus endpoint saw nothing.
      expect(await tus.settle()).toEqual([]);
      expect((await world.video(videoId))?.status).toBe(8);
    },
  );

  it('uploads a file within every restriction, once the browser has read its duration', async () => {
    const { page, frame, videoId } = await openOverlay({ accept: ['mp4'], minDuration: 1, maxDuration: 5, maxFileSize: 10_000_000 });
    await chooseFile(frame, clip);
    const events = await waitForEvents(page, (list) => list.length > 0);
    expect(events.map((event) => event.type)).toEqual(['success']);
    expect((await world.video(videoId))?.sourceFile).toBe('source.mp4');
  });

  it('a value the service cannot apply is its error page (106), and onFailure says so', async () => {
    const { page, frame } = await openOverlay({ accept: ['mp4', 'gif'] });
    const line = errorLineOf(await frame.locator('body').innerText());
    expect(line).toBe(
      'ErrorCode : 106, ErrorMessage : Invalid Parameter: accept must list containers among mp4, mov, m4v, 3gp, webm, mkv, avi, flv, wmv, mpeg, ts, ogg, rm, mxf, dv',
    );
    expect(await waitForOutcome(page)).toEqual({ rejected: expect.objectContaining({ kind: 'failure', code: '106' }) });
  });
});

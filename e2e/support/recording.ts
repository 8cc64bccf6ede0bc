import type { Frame, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { UploadSuccessInfo } from '../../src/shared/widgetConfig';
import { waitForEvents } from './widget';
import type { ServiceWorld } from './world';

/** Until transcoding ends; generous because the machine's 2 cores are shared. */
const PROCESSING_TIMEOUT = 100_000;

/** The uploader's Record choices (sources `camera` and `screen`). */
export type RecordChoice = 'Record with camera' | 'Record the screen';

/**
 * The choice; once the live picture shows, Start recording; 3-2-1: returns the test's clock when
 * the status line says Recording. A person presses Start on seeing the picture; a tab's capture
 * can take seconds to show one on a busy machine, and a recorder started before it hands over
 * nothing for as long.
 */
export async function startRecording(frame: Frame, choice: RecordChoice): Promise<number> {
  await frame.getByRole('button', { name: choice }).click();
  await frame.locator('video').evaluate(
    (video: HTMLVideoElement) =>
      new Promise<void>((shown, never) => {
        if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return shown();
        video.addEventListener('loadeddata', () => shown(), { once: true });
        setTimeout(() => never(new Error('the live picture showed nothing for 20 s')), 20_000);
      }),
  );
  await frame.getByRole('button', { name: 'Start recording' }).click();
  await frame.getByRole('status').getByText('Recording', { exact: true }).waitFor({ timeout: 10_000 });
  return Date.now();
}

/** sha256 and size of the take the review plays: the bytes the recorder produced. */
export interface TakeDigest {
  sha256: string;
  size: number;
}

export function takeDigest(frame: Frame): Promise<TakeDigest> {
  return frame.evaluate(async () => {
    const video = document.querySelector<HTMLVideoElement>('video[src^="blob:"]')!;
    const bytes = await (await fetch(video.src)).arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return { sha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join(''), size: bytes.byteLength };
  });
}

/**
 * The take's length as Chromium's own demuxer finds it in the review's video: MediaRecorder writes
 * no duration, so the browser learns it by seeking past the end. This, not the test's clock (which
 * sees Recording and Stop only as fast as the driver polls), is the recorded length.
 */
function takeSeconds(frame: Frame): Promise<number> {
  return frame.evaluate(async () => {
    const video = document.querySelector<HTMLVideoElement>('video[src^="blob:"]')!;
    if (video.readyState < 1)
      await new Promise((ready, unplayable) => {
        video.addEventListener('loadedmetadata', ready, { once: true });
        video.addEventListener('error', () => unplayable(new Error(`the take does not play: ${video.error?.message}`)), { once: true });
      });
    video.currentTime = Number.MAX_SAFE_INTEGER;
    for (let tries = 0; !Number.isFinite(video.duration) && tries < 100; tries++) await new Promise((wake) => setTimeout(wake, 50));
    return video.duration;
  });
}

/**
 * The review of a take recorded for `clockSeconds` by the test's clock: its digest and its length
 * (takeSeconds), which is within 1.5 s of the clock (the driver sees Recording and Stop late).
 */
export async function reviewTake(frame: Frame, clockSeconds: number): Promise<TakeDigest & { seconds: number }> {
  await frame.getByRole('button', { name: 'Upload' }).waitFor();
  const take = await takeDigest(frame);
  const seconds = await takeSeconds(frame);
  expect(Math.abs(seconds - clockSeconds), `the take lasts ${seconds} s, the test's clock saw ${clockSeconds} s`).toBeLessThan(1.5);
  return { ...take, seconds };
}

/**
 * Upload on the review, then what the person and the service see: onSuccess with the take's size,
 * processing makes it playable (status 1) with a Duration within 0.5 s of the take's, and
 * the stored file is the take, byte for byte. Returns onSuccess's info.
 */
export async function uploadTake(
  world: ServiceWorld,
  page: Page,
  frame: Frame,
  videoId: string,
  take: TakeDigest & { seconds: number },
): Promise<UploadSuccessInfo> {
  await frame.getByRole('button', { name: 'Upload' }).click();
  const [success] = await waitForEvents(page, (list) => list.some((event) => event.type === 'success'));
  expect(success).toMatchObject({ type: 'success', info: { videoId, fileSize: take.size } });
  await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);
  const { Video } = await world.getVideo(videoId);
  expect(Video.Status).toBe(1);
  expect(Math.abs(Number(Video.Duration) - take.seconds), `Duration ${Video.Duration}, recorded ${take.seconds}`).toBeLessThan(0.5);
  expect(await world.sourceSha256(videoId)).toBe(take.sha256);
  return (success as Extract<typeof success, { type: 'success' }>).info;
}

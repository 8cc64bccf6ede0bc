import type { BrowserContext } from 'playwright-core';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../test/support/s3';
import { sha256 } from '../test/uploadHelpers';
import { newContext } from './support/browser';
import { makeVideo, removeVideo, sha256File } from './support/media';
import { playAndSeekNearEnd, playingVideo, uploadThroughOverlay } from './support/playback';
import { APP_A, startWorld, type World } from './support/world';

// The widget in Chromium against a service whose files live in S3 (OpenStack Swift on loopback).
const PROCESSING_TIMEOUT = 100_000;

let s3: TestS3;
let bucket: string;
let world: World;
let context: BrowserContext;
let clip: string;

beforeAll(async () => {
  s3 = await startS3();
  const settings = await s3.newBucket();
  bucket = settings.bucket;
  world = await startWorld({ env: s3.env(settings) });
  context = await newContext(world.browser);
  clip = await makeVideo({ seconds: 6, bitrate: 1_000_000, width: 640, height: 360 }, 's3-clip.mp4');
}, 120_000);
afterAll(async () => {
  await context?.close();
  await world?.stop();
  await s3?.stop();
  removeVideo(clip);
});

describe('from the widget to a playable video, with the files in S3', () => {
  it('stores the upload byte for byte in the bucket, processes it, and plays and seeks it from there', async () => {
    const videoId = await world.registerVideo(APP_A, 's3 e2e');
    await uploadThroughOverlay(context, world, videoId, clip);
    await world.callbacks.waitFor(videoId, (c) => c.fields.VideoStatus === '1', PROCESSING_TIMEOUT);

    const source = await s3.client().send(new GetObjectCommand({ Bucket: bucket, Key: `media/${videoId}/source.mp4` }));
    expect(sha256(await source.Body!.transformToByteArray())).toBe(await sha256File(clip));
    // The H.264 clip reaches 1 with its remux (`Original`), which the first rung replaces and removes: play a rung.
    let got = await world.getVideo(videoId);
    for (let tries = 0; tries < 600 && got.VideoPlayFile.some((play) => play.BitrateLabel === 'Original'); tries++) {
      await new Promise((wake) => setTimeout(wake, 200));
      got = await world.getVideo(videoId);
    }
    const listed = await s3.client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `media/${videoId}/` }));
    const keys = (listed.Contents ?? []).map((entry) => entry.Key);
    for (const play of got.VideoPlayFile) expect(keys).toContain(`media/${videoId}/${new URL(play.VideoURL).pathname.split('/').pop()}`);

    const statuses: number[] = [];
    const file = got.VideoPlayFile[0]!.VideoURL;
    context.on('response', (response) => response.url() === file && statuses.push(response.status()));
    const seek = await playAndSeekNearEnd(await playingVideo(context, world, file));
    expect({ whole: seek.duration > 5, landed: Math.abs(seek.at - seek.target) < 0.5, playedOn: seek.after > seek.target }).toEqual({
      whole: true,
      landed: true,
      playedOn: true,
    });
    expect(statuses).toContain(206);
  });
});

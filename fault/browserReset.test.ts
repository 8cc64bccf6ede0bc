import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext } from '../e2e/support/browser';
import { fileSize, makeVideo, removeVideo, sha256File } from '../e2e/support/media';
import { chooseFile, openButton, uploadFrame, waitForEvents } from '../e2e/support/widget';
import { startWorld, type World } from '../e2e/support/world';
import { startFaultyProxy, type FaultyProxy } from './support/faultyProxy';

const MIB = 1024 * 1024;
let proxy: FaultyProxy;
let world: World;
let context: BrowserContext;
let video: string;

beforeAll(async () => {
  // The proxy's port is the service's PUBLIC_URL, so the loader, the page and every tus request
  // of Chromium go through it; it learns the service's port once the service listens.
  proxy = await startFaultyProxy(0);
  world = await startWorld({ env: { PUBLIC_URL: proxy.origin } });
  proxy.retarget(Number(new URL(world.service.address).port));
  world.host.serviceUrl = proxy.origin;
  context = await newContext(world.browser);
  video = await makeVideo({ seconds: 6, bitrate: 8_000_000 }, 'reset.mp4');
});
afterAll(async () => {
  await context?.close();
  await world?.stop();
  await proxy?.close();
  removeVideo(video);
});

describe('Chromium uploading through a connection that is reset mid-PATCH', () => {
  it('resumes by itself: one onSuccess, no onError or onFailure, the file byte-identical, no stray upload file', async () => {
    expect(fileSize(video)).toBeGreaterThan(4 * MIB);
    const videoId = await world.registerVideo();
    const page = await world.openHostPage(context, '/overlay.html', world.widgetAuth(videoId));
    proxy.fault = { breakAfterBytes: 2 * MIB, how: 'reset', once: true };
    await openButton(page).click();
    await chooseFile(await uploadFrame(page), video);

    const events = await waitForEvents(page, (list) => list.length > 0);
    expect(
      events.map((event) => event.type),
      JSON.stringify(events),
    ).toEqual(['success']);
    expect(proxy.breaks).toBe(1);
    expect(await world.sourceSha256(videoId)).toBe(await sha256File(video));
    const row = await world.service.db.selectFrom('uploads').select('id').where('video_id', '=', videoId).executeTakeFirstOrThrow();
    expect(readdirSync(join(world.service.dataDir, 'uploads')).sort()).toEqual([row.id, `${row.id}.json`]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from '../test/support/media';
import { openUploader, registerVideo, tusCreate, tusPatch } from '../test/uploadHelpers';
import { makeLongVideo } from './support/media';
import { serviceHome, startCrashable, stopCrashable, type CrashableService } from './support/crashableService';
import { childrenOf, waitUntil } from './support/processes';

/**
 * A browser-playable source is published as its remux first, any other source as its lightest
 * rung; the other rungs follow in one pass. A SIGKILL during that pass must leave a video in
 * status 1 that lists only files that are there, and the next start completes the ladder.
 */

const home = serviceHome();
let service: CrashableService | undefined;
const sources = new Map<'libx264' | 'mpeg4', string>();
afterAll(async () => {
  await stopCrashable(service);
  home.remove();
});

interface Listed {
  status: number;
  labels: string[];
  urls: string[];
}

async function listed(target: CrashableService, videoId: string): Promise<Listed> {
  const query = new URLSearchParams({ ...target.auth(), Id: videoId });
  const reply = (await (await fetch(`${target.address}/Api/Video/Get?${query}`)).json()) as {
    Video: { Status: number };
    VideoPlayFile: { VideoURL: string; BitrateLabel: string }[];
  };
  return {
    status: reply.Video.Status,
    labels: reply.VideoPlayFile.map((file) => file.BitrateLabel),
    urls: reply.VideoPlayFile.map((file) => file.VideoURL),
  };
}

/** Every listed file is served whole and ffprobe reads a video in it. */
async function expectAllPlayable(state: Listed): Promise<void> {
  for (const url of state.urls) {
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
    expect((await probe(url)).streams.some((stream) => stream.codec_type === 'video')).toBe(true);
  }
}

/** Uploads a 30 s 640×360 clip (H.264 unless said) and resolves once the video lists `labels` while a rung's x264 runs. */
async function uploadUntil(labels: string[], codec: 'libx264' | 'mpeg4' = 'libx264'): Promise<{ videoId: string; media: string }> {
  await stopCrashable(service);
  const running = await startCrashable(home, { PROCESSING_CONCURRENCY: '1' });
  service = running;
  const videoId = await registerVideo(running);
  const boot = await openUploader(running, videoId);
  if (!sources.has(codec)) sources.set(codec, await makeLongVideo(home.dataDir, 30, codec));
  const bytes = readFileSync(sources.get(codec)!);
  const created = await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length);
  expect((await tusPatch(created.headers.get('location')!, boot.ticket, 0, bytes)).status).toBe(204);
  await waitUntil(`status 1 listing ${labels.join()} while a rung is encoded`, 90_000, async () => {
    const state = await listed(running, videoId);
    const encoding = childrenOf(running.process.pid).some(({ argv }) => argv[0] === 'ffmpeg' && argv.includes('libx264'));
    return state.status === 1 && state.labels.join() === labels.join() && encoding ? true : undefined;
  });
  return { videoId, media: join(home.dataDir, 'media', videoId) };
}

async function restartAndFinish(videoId: string, media: string, listedAtKill: string[]): Promise<void> {
  service!.process.stop('SIGKILL');
  await service!.process.exit;
  service = await startCrashable(home, { PROCESSING_CONCURRENCY: '1' });

  // Straight after the restart: still status 1, with what it listed, every file of it there.
  const after = await listed(service, videoId);
  expect(after.status).toBe(1);
  expect(after.labels).toEqual(listedAtKill);
  await expectAllPlayable(after);

  const done = await waitUntil('the whole ladder', 100_000, async () => {
    const state = await listed(service!, videoId);
    return state.labels.join() === '360P,240P' ? state : undefined;
  });
  await expectAllPlayable(done);
  // What it listed before still answers: the remux is retired, served for REMUX_GRACE_S.
  for (const url of after.urls) expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
  expect(readdirSync(media).filter((name) => name.startsWith('.'))).toEqual([]);
}

describe('the service killed with SIGKILL after status 1', () => {
  it('while the rungs are encoded after a remux: the remux stays listed and playable; the next start adds the rungs and retires it', async () => {
    const { videoId, media } = await uploadUntil(['Original']);
    await restartAndFinish(videoId, media, ['Original']);
  });

  it('while the rungs above the lightest of a source browsers cannot play are encoded: it stays; the next start adds them', async () => {
    // MPEG-4 Part 2: status 1 with 240P alone, which the list cannot tell from a whole ladder; the resumed job finds 360P missing.
    const { videoId, media } = await uploadUntil(['240P'], 'mpeg4');
    await restartAndFinish(videoId, media, ['240P']);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openUploader, registerVideo, tusCreate, tusPatch } from '../test/uploadHelpers';
import { makeLongVideo } from './support/media';
import { serviceHome, startCrashable, stopCrashable, type CrashableService } from './support/crashableService';
import { childrenOf, isRunning, waitUntil } from './support/processes';

const home = serviceHome();
let service: CrashableService | undefined;
afterAll(async () => {
  await stopCrashable(service);
  home.remove();
});

async function videoState(target: CrashableService, videoId: string): Promise<{ status: number; labels: string[] }> {
  const query = new URLSearchParams({ ...target.auth(), Id: videoId });
  const reply = (await (await fetch(`${target.address}/Api/Video/Get?${query}`)).json()) as {
    Video: { Status: number };
    VideoPlayFile: { BitrateLabel: string }[];
  };
  return { status: reply.Video.Status, labels: reply.VideoPlayFile.map((file) => file.BitrateLabel) };
}

/** A service encoding a minute of video (the source is H.264, so this is the rungs' pass after its remux); resolves once that ffmpeg runs. */
async function transcoding() {
  await stopCrashable(service);
  const running = await startCrashable(home, { PROCESSING_CONCURRENCY: '1' });
  service = running;
  const videoId = await registerVideo(running);
  const boot = await openUploader(running, videoId);
  const bytes = readFileSync(source ?? (source = await makeLongVideo(home.dataDir)));
  const created = await tusCreate(boot.tusEndpoint, boot.ticket, bytes.length);
  expect((await tusPatch(created.headers.get('location')!, boot.ticket, 0, bytes)).status).toBe(204);
  const ffmpeg = await waitUntil('the transcode ffmpeg', 60_000, () =>
    childrenOf(running.process.pid).find(
      ({ argv }) => argv[0] === 'ffmpeg' && argv.includes('libx264') && argv.some((arg) => arg.includes(videoId)),
    ),
  );
  return { running, videoId, ffmpeg, media: join(home.dataDir, 'media', videoId) };
}
let source: string | undefined;

describe('the service killed with SIGKILL while it transcodes', () => {
  it('ends the orphaned ffmpeg at its next start, removes the work folder and finishes the video', async () => {
    const { running, videoId, ffmpeg, media } = await transcoding();
    running.process.stop('SIGKILL');
    await running.process.exit;
    // SIGKILL ends the service alone: its ffmpeg goes on writing into the work folder.
    expect(isRunning(ffmpeg.pid)).toBe(true);
    expect(readdirSync(media).some((name) => name.startsWith('.work-'))).toBe(true);

    service = await startCrashable(home, { PROCESSING_CONCURRENCY: '1' });
    // Ended before the new service answers HTTP, long before the old transcode would have finished.
    await waitUntil('the orphaned ffmpeg to end', 2_000, () => (isRunning(ffmpeg.pid) ? undefined : true));

    await waitUntil('the whole ladder', 90_000, async () => {
      const { status, labels } = await videoState(service!, videoId);
      return status === 1 && labels.join() === '360P,240P' ? true : undefined;
    });
    expect(readdirSync(media).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(childrenOf(service.process.pid).filter(({ argv }) => argv[0] === 'ffmpeg')).toEqual([]);
    expect(readdirSync(join(home.dataDir, 'processes'))).toEqual([]);
  });
});

describe('the service stopped with SIGTERM while it transcodes', () => {
  it('ends its ffmpeg with it, leaving no process, ledger entry or work folder', async () => {
    const { running, ffmpeg, media } = await transcoding();
    running.process.stop('SIGTERM');
    expect(await running.process.exit).toBe(0);
    expect(isRunning(ffmpeg.pid)).toBe(false);
    expect(readdirSync(join(home.dataDir, 'processes'))).toEqual([]);
    expect(readdirSync(media).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});

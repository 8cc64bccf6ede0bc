import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetVideoReply } from '../src/shared/apiReplies';
import { readFragmentIndex } from '../src/server/media/fragmentIndex';
import { waitForLadder } from './support/ladder';
import { getVideoReply, masterOf, processSource } from './support/processSource';
import { startTestService, type TestService } from './support/service';

/**
 * Adaptive streaming: each rung is one fragmented MP4 that HLS addresses by byte ranges, and the
 * playlists are served beside it. ffprobe (real ffmpeg) reads the master and every media
 * playlist over HTTP, as a player would. Clips are made by ffmpeg here.
 */

const run = promisify(execFile);
const FFMPEG = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
const LADDER_TIMEOUT_MS = 240_000;

let work: string;
let service: TestService;

async function ffmpeg(...args: string[]): Promise<void> {
  await run('ffmpeg', [...FFMPEG, ...args]);
}

async function ffprobe(target: string, ...args: string[]): Promise<string> {
  return (await run('ffprobe', ['-v', 'error', ...args, target])).stdout;
}

/** A 640×360 H.264/AAC clip of `seconds` at 25 fps with one key frame every `gop` frames. */
async function makeClip(name: string, seconds: number, gop: number): Promise<string> {
  const file = join(work, name);
  await ffmpeg(
    ...['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(gop), '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  );
  return file;
}

/** Frames shown and the duration of what `target` (a file or a playlist's URL) plays, decoded by ffmpeg. */
async function played(target: string): Promise<{ frames: number; seconds: number }> {
  const text = await ffprobe(
    target,
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames:format=duration',
    '-of',
    'json',
  );
  const parsed = JSON.parse(text) as { streams: { nb_read_frames: string }[]; format: { duration: string } };
  return { frames: Number(parsed.streams[0]!.nb_read_frames), seconds: Number(parsed.format.duration) };
}

/** What the cut shows: 150 frames, 6 s (the audio's last AAC frame may run past by a few hundredths); 7 s would be the cut's frames before its edit point. */
function expectSixSeconds(playback: { frames: number; seconds: number }, what: string): void {
  expect(playback.frames, what).toBe(150);
  expect(Math.abs(playback.seconds - 6), what).toBeLessThan(0.15);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-hls-'));
  service = await startTestService();
}, 60_000);
afterAll(async () => {
  await service?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

describe('a source with an edit list, its rungs played through HLS', { timeout: LADDER_TIMEOUT_MS }, () => {
  let cut: string;
  let videoId: string;
  let first: GetVideoReply;
  let done: GetVideoReply;
  beforeAll(async () => {
    // A cut at 1 s of a clip with one key frame: 6 s (150 frames) shown of 7 s stored, as an editor leaves it.
    const whole = await makeClip('whole.mp4', 7, 250);
    cut = join(work, 'cut.mp4');
    await ffmpeg('-ss', '1', '-i', whole, '-c', 'copy', cut);
    expect(readFileSync(cut).includes('elst')).toBe(true);
    ({ videoId, first } = await processSource(service, cut, { timeoutMs: LADDER_TIMEOUT_MS }));
    await waitForLadder(service.db, videoId);
    done = await getVideoReply(service, videoId);
  }, LADDER_TIMEOUT_MS);

  it('is encoded, not remuxed: status 1 comes with its lightest rung, MobilePlayURL the master; a fragmented copy would lose its edit list', async () => {
    // A cut whose edit list hides its first frames is encoded (playability.ts): no browser then shows them.
    expect(first.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['240P']);
    expect(first.MediaSever.MobilePlayURL).toBe(masterOf(first));
    // Why a remux is never fragmented: ffmpeg 5.1 drops the edit list then, and the cut plays from its stored start.
    const fragmented = join(work, 'cut-fragmented.mp4');
    await ffmpeg('-i', cut, '-c', 'copy', '-movflags', '+frag_keyframe+empty_moov+default_base_moof+global_sidx', '-f', 'mp4', fragmented);
    expect((await played(fragmented)).frames).toBe(175);
  });

  it('makes MobilePlayURL the master playlist once rungs are listed, the Get shape otherwise as before', () => {
    expect(done.VideoPlayFile.map((file) => file.BitrateLabel)).toEqual(['360P', '240P']);
    expect(done.MediaSever.MobilePlayURL).toBe(masterOf(done));
    expect(done.MediaSever.PlayURL).toBe(done.VideoPlayFile[0]!.VideoURL);
    expect(Object.keys(done)).toEqual(Object.keys(first));
    expect(Object.keys(done.MediaSever)).toEqual(['PlayURL', 'MobilePlayURL', 'DownloadURL']);
  });

  it('serves the master with one variant per rung, best first, with BANDWIDTH, RESOLUTION and CODECS', async () => {
    const res = await fetch(done.MediaSever.MobilePlayURL);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    const variants = [...text.matchAll(/#EXT-X-STREAM-INF:(.*)\n(.*)/g)].map(([, attributes, uri]) => ({ attributes, uri }));
    expect(variants.map((variant) => variant.uri)).toEqual(['360p.m3u8', '240p.m3u8']);
    expect(variants[0]!.attributes).toMatch(/RESOLUTION=640x360,CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"/);
    expect(variants[1]!.attributes).toMatch(/RESOLUTION=426x240,/);
    const bandwidth = variants.map((variant) => Number(/(?:^|,)BANDWIDTH=(\d+)/.exec(variant.attributes!)![1]));
    expect(bandwidth[0]).toBeGreaterThan(bandwidth[1]!);
  });

  it('plays, through ffprobe, the master and each media playlist for the 6 s and 150 frames the source shows', async () => {
    const source = await played(cut);
    expect(source.frames).toBe(150);
    expectSixSeconds(await played(done.MediaSever.MobilePlayURL), 'master');
    for (const file of done.VideoPlayFile) {
      const playlist = file.VideoURL.replace(/\.mp4$/, '.m3u8');
      const res = await fetch(playlist);
      expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
      // Each fragment a byte range of the one MP4; nothing but playlists is added to what is stored.
      expect(await res.text()).toMatch(new RegExp(`#EXT-X-MAP:URI="${file.BitrateLabel.toLowerCase()}\\.mp4",BYTERANGE="\\d+@0"`));
      expectSixSeconds(await played(playlist), playlist);
      // The same file, played whole.
      expectSixSeconds(await played(file.VideoURL), file.VideoURL);
    }
  });

  it('answers any origin for the MP4s too, so hls.js on an app page fetches their byte ranges', async () => {
    const res = await fetch(done.VideoPlayFile[1]!.VideoURL, { headers: { Range: 'bytes=0-99', Origin: 'https://app.example' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('knows no playlist of a file that is not a listed rung', async () => {
    const base = done.VideoPlayFile[0]!.VideoURL.replace(/[^/]+$/, '');
    for (const name of ['original.m3u8', '1080p.m3u8', 'source.m3u8', 'poster.m3u8'])
      expect((await fetch(base + name)).status, name).toBe(404);
  });

  it('keeps a plain MobilePlayURL, the lightest rung, for rungs transcoded before HLS, and names no master', async () => {
    // What the upgrade leaves of a video transcoded before HLS: its rungs listed, none segmented
    // (faststart MP4s no playlist can address).
    const unsegment = (segmented: number) =>
      service.db.updateTable('play_files').set({ segmented }).where('video_id', '=', videoId).execute();
    await unsegment(0);
    try {
      const before = await getVideoReply(service, videoId);
      expect(before.MediaSever.MobilePlayURL).toBe(before.VideoPlayFile.at(-1)!.VideoURL);
      expect((await fetch(masterOf(before))).status).toBe(404);
      expect((await fetch(before.VideoPlayFile[0]!.VideoURL.replace(/\.mp4$/, '.m3u8'))).status).toBe(404);
    } finally {
      await unsegment(1);
    }
  });
});

describe('needHandleSepcial', { timeout: LADDER_TIMEOUT_MS }, () => {
  it('keeps MobilePlayURL the source, byte for byte, and has no playlist', async () => {
    const clip = await makeClip('special.mp4', 2, 50);
    const { first } = await processSource(service, clip, { needHandleSpecial: true, timeoutMs: LADDER_TIMEOUT_MS });
    expect(first.VideoPlayFile).toHaveLength(1);
    expect(first.MediaSever.MobilePlayURL).toBe(first.VideoPlayFile[0]!.VideoURL);
    expect(Buffer.from(await (await fetch(first.MediaSever.MobilePlayURL)).arrayBuffer()).equals(readFileSync(clip))).toBe(true);
    expect((await fetch(masterOf(first))).status).toBe(404);
  });
});

describe('the layout ffmpeg 5.1 writes for frag_keyframe+global_sidx without empty_moov', () => {
  it('is not taken for a rung: its first fragment sits in a plain mdat before the sidx, where no byte range of the index points', async () => {
    const clip = await makeClip('plain.mp4', 4, 50);
    const without = join(work, 'without-empty-moov.mp4');
    await ffmpeg('-i', clip, '-c', 'copy', '-movflags', '+frag_keyframe+global_sidx', '-f', 'mp4', without);
    const bytes = readFileSync(without);
    expect(bytes.indexOf('mdat')).toBeLessThan(bytes.indexOf('sidx'));
    expect(readFragmentIndex(bytes)).toBeUndefined();
    const withEmptyMoov = join(work, 'with-empty-moov.mp4');
    await ffmpeg(
      '-i',
      clip,
      '-c',
      'copy',
      '-movflags',
      '+frag_keyframe+empty_moov+default_base_moof+global_sidx',
      '-f',
      'mp4',
      withEmptyMoov,
    );
    const index = readFragmentIndex(readFileSync(withEmptyMoov));
    // Two fragments of a 4 s clip with a key frame every 2 s, from the first moof on.
    expect(index && 'fragments' in index && index.fragments.map((fragment) => Math.round(fragment.seconds))).toEqual([2, 2]);
    expect(index && 'fragments' in index && index.fragments[0]!.offset).toBe(readFileSync(withEmptyMoov).indexOf('moof') - 4);
  });
});

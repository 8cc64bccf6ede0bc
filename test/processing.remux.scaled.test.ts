import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetVideoReply } from '../src/shared/apiReplies';
import { waitForLadder } from './support/ladder';
import { getVideoReply, masterOf, processSource } from './support/processSource';
import { startTestService, type TestService } from './support/service';
import { storedMedia, storedMediaNames } from './support/storage';

/**
 * The remux path: a source browsers play is published at once, copied rather than encoded, and
 * the ladder's rungs follow; and the path of a source browsers cannot play: its lightest rung
 * first, then the others. Every clip is made by ffmpeg here; none is stored in git.
 */

const run = promisify(execFile);
const FFMPEG = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];

let work: string;
let service: TestService;
const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
const infos: { message: string; fields?: Record<string, unknown> }[] = [];

async function ffmpeg(...args: string[]): Promise<void> {
  await run('ffmpeg', [...FFMPEG, ...args]);
}

/**
 * H.264 (4:2:0; High with x264's `veryfast`, Constrained Baseline with `ultrafast`) and AAC in
 * MP4, from a busy test pattern, long enough that its first rung takes seconds to encode: the
 * remux is seen alone before it.
 */
async function makeClip(
  name: string,
  options: { width?: number; height?: number; seconds?: number; gop?: number; preset?: string; extra?: string[] } = {},
): Promise<string> {
  const { width = 640, height = 360, seconds = 6, gop = 50, preset = 'ultrafast', extra = [] } = options;
  const file = join(work, name);
  await ffmpeg(
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-g',
    String(gop),
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    ...extra,
    file,
  );
  return file;
}

async function ffprobe(target: string, ...args: string[]): Promise<string> {
  return (await run('ffprobe', ['-v', 'error', ...args, target])).stdout;
}

interface Described {
  format: { duration: string; format_name: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; side_data_list?: { rotation?: number }[] }[];
}

async function probeJson(target: string): Promise<Described> {
  return JSON.parse(await ffprobe(target, '-print_format', 'json', '-show_format', '-show_streams')) as Described;
}

/** The video packets' md5 as stored: equal for a copy, different for any re-encoding. */
async function videoPacketsHash(target: string): Promise<string> {
  return (await run('ffmpeg', [...FFMPEG, '-i', target, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-'])).stdout.trim();
}

/** Frames a player shows (the edit list applied), counted by decoding. */
async function shownFrames(target: string): Promise<number> {
  return Number(
    (await ffprobe(target, '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0')).trim(),
  );
}

/** When each frame is shown, in seconds, in order. */
async function framePresentationTimes(target: string): Promise<number[]> {
  const text = await ffprobe(
    target,
    '-select_streams',
    'v:0',
    '-show_entries',
    'frame=pts_time',
    '-of',
    'default=noprint_wrappers=1:nokey=1',
  );
  return text
    .split('\n')
    .filter((line) => /^\d/.test(line))
    .map(Number);
}

/** Rungs are encoded for real, on a machine other tests share. */
const LADDER_TIMEOUT_MS = 240_000;

const labels = (reply: GetVideoReply) => reply.VideoPlayFile.map((file) => file.BitrateLabel);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ovu-remux-'));
  service = await startTestService({
    log: {
      debug() {},
      info: (message, fields) => infos.push({ message, fields }),
      warn: (message, fields) => warnings.push({ message, fields }),
      error() {},
    },
  });
}, 60_000);
afterAll(async () => {
  await service?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

describe('a source browsers play', { timeout: LADDER_TIMEOUT_MS }, () => {
  let source: string;
  let videoId: string;
  let first: GetVideoReply;
  beforeAll(async () => {
    source = await makeClip('phone.mp4', { width: 1280, height: 720, seconds: 8, preset: 'veryfast' });
    // ffprobe decides, not the name: stored without an extension it is still remuxed.
    ({ videoId, first } = await processSource(service, source, { name: 'upload.bin', timeoutMs: LADDER_TIMEOUT_MS }));
  }, LADDER_TIMEOUT_MS);

  it('is published at status 1 as one remuxed MP4, its packets copied untouched, index in front', async () => {
    expect(first.Video.Status).toBe(1);
    expect(labels(first)).toEqual(['Original']);
    expect(first.MediaSever.PlayURL).toBe(first.VideoPlayFile[0]!.VideoURL);
    expect(first.MediaSever.MobilePlayURL).toBe(first.VideoPlayFile[0]!.VideoURL);
    const remux = await fetch(first.VideoPlayFile[0]!.VideoURL);
    expect(remux.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await remux.arrayBuffer());
    const copy = join(work, 'remux-copy.mp4');
    writeFileSync(copy, bytes);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect(await videoPacketsHash(copy)).toBe(await videoPacketsHash(source));
    const described = await probeJson(copy);
    expect(described.streams.map((stream) => stream.codec_name)).toEqual(['h264', 'aac']);
    expect(Number(described.format.duration)).toBeCloseTo(Number((await probeJson(source)).format.duration), 1);
    expect(first.Video.Duration).toBeCloseTo(8, 0);
    expect(first.Video.PicSavePath).not.toBe('');
  });

  it('queues the callback once, at the first playable file', async () => {
    await waitForLadder(service.db, videoId);
    const callbacks = await service.db.selectFrom('callbacks').select('video_status').where('video_id', '=', videoId).execute();
    expect(callbacks).toEqual([{ video_status: 1 }]);
  });

  it('gets its rungs later, best first; PlayURL moves to the best, and the remux is unlisted but still served', async () => {
    await waitForLadder(service.db, videoId);
    const done = await getVideoReply(service, videoId);
    expect(done.VideoPlayFile.map((file) => [file.BitrateLabel, file.Bitrate])).toEqual([
      ['720P', 2500],
      ['480P', 1000],
      ['360P', 600],
    ]);
    expect(done.MediaSever.PlayURL).toBe(done.VideoPlayFile[0]!.VideoURL);
    expect(done.MediaSever.MobilePlayURL).toBe(masterOf(done));
    expect(Object.keys(done)).toEqual(Object.keys(first));
    // A player that started on it reads on (REMUX_GRACE_S; test/processing.grace.scaled.test.ts).
    expect((await fetch(first.VideoPlayFile[0]!.VideoURL)).status).toBe(200);
    const names = await storedMediaNames(service, videoId);
    expect(names).toEqual(expect.arrayContaining(['720p.mp4', '480p.mp4', '360p.mp4', 'poster.jpg', 'upload.bin', 'original.mp4']));
    // The storage quota counts what the video lists: the rungs and the pictures, not the retired remux.
    const counted = (await service.db.selectFrom('videos').select('rendition_bytes').where('id', '=', videoId).executeTakeFirstOrThrow())
      .rendition_bytes;
    const kept = names.filter((name) => name !== 'upload.bin' && name !== 'original.mp4');
    const sizes = await Promise.all(kept.map(async (name) => (await storedMedia(service, videoId, name))!.length));
    expect(Number(counted)).toBe(sizes.reduce((sum, size) => sum + size, 0));
  });
});

describe('a source browsers cannot play (VP9/Opus in WebM)', { timeout: LADDER_TIMEOUT_MS }, () => {
  let videoId: string;
  let first: GetVideoReply;
  beforeAll(async () => {
    const file = join(work, 'camera.webm');
    await ffmpeg(
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=25:duration=4',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=4',
      '-c:v',
      'libvpx-vp9',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '1M',
      '-c:a',
      'libopus',
      '-shortest',
      file,
    );
    ({ videoId, first } = await processSource(service, file, { name: 'source.webm', timeoutMs: LADDER_TIMEOUT_MS }));
  }, LADDER_TIMEOUT_MS);

  it('reaches status 1 with its lightest rung alone, PlayURL that file and MobilePlayURL the master playlist, and queues the callback then', async () => {
    expect(first.Video.Status).toBe(1);
    expect(first.VideoPlayFile.map((file) => [file.BitrateLabel, file.Bitrate])).toEqual([['360P', 600]]);
    expect(first.MediaSever.PlayURL).toBe(first.VideoPlayFile[0]!.VideoURL);
    expect(first.MediaSever.MobilePlayURL).toBe(masterOf(first));
    const lightest = join(work, 'lightest.mp4');
    writeFileSync(lightest, Buffer.from(await (await fetch(first.VideoPlayFile[0]!.VideoURL)).arrayBuffer()));
    const described = await probeJson(lightest);
    expect(described.streams.map((stream) => [stream.codec_name, stream.height])).toEqual([
      ['h264', 360],
      ['aac', undefined],
    ]);
    expect(first.Video.PicSavePath).not.toBe('');
    const callbacks = await service.db.selectFrom('callbacks').select('video_status').where('video_id', '=', videoId).execute();
    expect(callbacks).toEqual([{ video_status: 1 }]);
  });

  it('gets the other rungs after, in one pass, listed best first, PlayURL at the best and MobilePlayURL still the master; no second callback', async () => {
    await waitForLadder(service.db, videoId);
    const done = await getVideoReply(service, videoId);
    expect(done.VideoPlayFile.map((file) => [file.BitrateLabel, file.Bitrate])).toEqual([
      ['720P', 2500],
      ['480P', 1000],
      ['360P', 600],
    ]);
    expect(done.MediaSever.PlayURL).toBe(done.VideoPlayFile[0]!.VideoURL);
    expect(done.MediaSever.MobilePlayURL).toBe(masterOf(first));
    // The seed's Get shape, whatever the path.
    expect(Object.keys(done)).toEqual(Object.keys(first));
    expect(Object.keys(done.Video)).toEqual(Object.keys(first.Video));
    // Both in one pass (one decode of the source), one job after the first.
    const added = infos.filter((entry) => entry.message === 'rungs added' && entry.fields?.videoId === videoId);
    expect(added.map((entry) => entry.fields?.files)).toEqual([['720p.mp4', '480p.mp4']]);
    const jobs = await service.db.selectFrom('jobs').select(['kind', 'state']).where('video_id', '=', videoId).execute();
    expect(jobs).toEqual([
      { kind: 'transcode', state: 'done' },
      { kind: 'transcode', state: 'done' },
    ]);
    const callbacks = await service.db.selectFrom('callbacks').select('video_status').where('video_id', '=', videoId).execute();
    expect(callbacks).toEqual([{ video_status: 1 }]);
  });
});

describe('sources that are not remuxed as they are', { timeout: LADDER_TIMEOUT_MS }, () => {
  it('H.264 in 4:4:4, which browsers refuse, is encoded: its lightest rung at status 1, no Original, the other after', async () => {
    const file = await makeClip('444.mp4', { seconds: 2, preset: 'veryfast', extra: ['-pix_fmt', 'yuv444p'] });
    const { videoId, first } = await processSource(service, file, { timeoutMs: LADDER_TIMEOUT_MS });
    expect(labels(first)).toEqual(['240P']);
    await waitForLadder(service.db, videoId);
    expect(labels(await getVideoReply(service, videoId))).toEqual(['360P', '240P']);
  });

  it('PCM sound in a MOV is encoded to AAC beside the copied picture', async () => {
    const plain = await makeClip('for-pcm.mp4');
    const file = join(work, 'pcm.mov');
    await ffmpeg('-i', plain, '-c:v', 'copy', '-c:a', 'pcm_s16le', file);
    const { first } = await processSource(service, file, { name: 'source.mov', timeoutMs: LADDER_TIMEOUT_MS });
    expect(labels(first)).toEqual(['Original']);
    const remux = join(work, 'pcm-remux.mp4');
    writeFileSync(remux, Buffer.from(await (await fetch(first.VideoPlayFile[0]!.VideoURL)).arrayBuffer()));
    expect((await probeJson(remux)).streams.map((stream) => stream.codec_name)).toEqual(['h264', 'aac']);
    expect(await videoPacketsHash(remux)).toBe(await videoPacketsHash(file));
  });

  it('a sound track no decoder reads is left out, with the reason logged, and the picture is published', async () => {
    const plain = await makeClip('for-mute.mp4');
    const pcm = join(work, 'for-mute.mov');
    await ffmpeg('-i', plain, '-c:v', 'copy', '-c:a', 'pcm_s16le', pcm);
    // The sound's codec tag rewritten to one no decoder knows: ffprobe sees an audio stream of codec "unknown".
    const bytes = readFileSync(pcm);
    const tag = bytes.indexOf('sowt');
    expect(tag).toBeGreaterThan(0);
    bytes.write('zzzz', tag, 'latin1');
    const file = join(work, 'mute.mov');
    writeFileSync(file, bytes);

    const { videoId, first } = await processSource(service, file, { name: 'source.mov', timeoutMs: LADDER_TIMEOUT_MS });
    expect(labels(first)).toEqual(['Original']);
    const remux = join(work, 'mute-remux.mp4');
    writeFileSync(remux, Buffer.from(await (await fetch(first.VideoPlayFile[0]!.VideoURL)).arrayBuffer()));
    expect((await probeJson(remux)).streams.map((stream) => stream.codec_type)).toEqual(['video']);
    expect(warnings).toContainEqual({
      message: 'audio left out of the play files',
      fields: expect.objectContaining({ videoId, reason: expect.stringMatching(/codec/i) }),
    });

    // The rungs, encoded, leave it out too rather than failing.
    await waitForLadder(service.db, videoId);
    const done = await getVideoReply(service, videoId);
    expect(labels(done)).toEqual(['360P', '240P']);
    expect((await probeJson(done.VideoPlayFile[1]!.VideoURL)).streams.map((stream) => stream.codec_type)).toEqual(['video']);
  });
});

describe('the remux plays as the source does', { timeout: LADDER_TIMEOUT_MS }, () => {
  async function remuxOf(file: string): Promise<string> {
    const { first } = await processSource(service, file, { timeoutMs: LADDER_TIMEOUT_MS });
    expect(labels(first)).toEqual(['Original']);
    const remux = join(work, `remux-of-${file.split('/').pop()}`);
    writeFileSync(remux, Buffer.from(await (await fetch(first.VideoPlayFile[0]!.VideoURL)).arrayBuffer()));
    return remux;
  }

  it('an edit list that hides the first frames (a cut between key frames) is encoded, to its duration and its first shown frame', async () => {
    // A cut at 1 s of a clip with one key frame: a copy keeps the frames from 0 and an edit list that skips the first second.
    // Firefox would show that second (engines/playback.test.ts), so the first play file is the lightest rung instead.
    const whole = await makeClip('whole.mp4', { seconds: 7, gop: 250 });
    const cut = join(work, 'cut.mp4');
    await ffmpeg('-ss', '1', '-i', whole, '-c', 'copy', cut);
    expect(readFileSync(cut).includes('elst')).toBe(true);
    const { first } = await processSource(service, cut, { timeoutMs: LADDER_TIMEOUT_MS });
    expect(labels(first)).toEqual(['240P']);
    const rung = join(work, 'rung-of-cut.mp4');
    writeFileSync(rung, Buffer.from(await (await fetch(first.VideoPlayFile[0]!.VideoURL)).arrayBuffer()));
    // The rung's sound runs a little past its picture (AAC's priming and padding; a fragmented MP4 has no edit list for them).
    expect(Math.abs(Number((await probeJson(rung)).format.duration) - 6)).toBeLessThan(0.15);
    expect(await shownFrames(rung)).toBe(await shownFrames(cut));
    expect(await shownFrames(rung)).toBe(150);
  });

  it('a rotation (display matrix) stays, so a portrait phone video shows upright', async () => {
    const plain = await makeClip('landscape.mp4');
    const turned = join(work, 'turned.mp4');
    await ffmpeg('-i', plain, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', turned);
    const rotation = async (file: string) =>
      (await probeJson(file)).streams
        .find((stream) => stream.codec_type === 'video')!
        .side_data_list?.find((side) => side.rotation !== undefined)?.rotation;
    expect(Math.abs((await rotation(turned)) ?? 0)).toBe(90);
    const remux = await remuxOf(turned);
    expect(await rotation(remux)).toBe(await rotation(turned));
  });

  it('a variable frame rate keeps every frame at its own time', async () => {
    const steady = await makeClip('steady.mp4');
    const gappy = join(work, 'vfr.mp4');
    // Frames 20 to 59 dropped: 1.6 s with no new picture, as a phone writes when it stalls.
    await ffmpeg(
      '-i',
      steady,
      '-vf',
      "select='not(between(n,20,59))'",
      '-vsync',
      'vfr',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'copy',
      gappy,
    );
    const remux = await remuxOf(gappy);
    const times = await framePresentationTimes(remux);
    expect(times).toEqual(await framePresentationTimes(gappy));
    expect(times).toHaveLength(110);
    expect(times[20]! - times[19]!).toBeCloseTo(1.64, 2);
  });
});

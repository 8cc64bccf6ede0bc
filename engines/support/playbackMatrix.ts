import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitForLadder } from '../../test/support/ladder';
import { getVideoReply, processSource } from '../../test/support/processSource';
import { recordInChromium } from '../../test/support/recording';
import type { TestService } from '../../test/support/service';

/**
 * The shapes of video people upload that a plain test pattern misses, each made by ffmpeg here
 * (none is kept in git), processed by a real service to its first play file (PlayURL at status
 * 1), and then played in each browser engine by the same check ({@link PLAY_CHECK}).
 */

const run = promisify(execFile);
const FFMPEG = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
/** Small and short: the matrix is about shapes, not sizes, and every engine plays all of it. */
const SIZE = '320x240';
const RECORDED_SECONDS = 3;

const tone = (seconds: number) => ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`];
const pattern = (seconds: number, rate = 25, size = SIZE) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`,
];
const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
const aac = ['-c:a', 'aac'];
/**
 * A quarter turn in the display matrix, as a phone held upright records. A copy: ffmpeg 5.1
 * writes the `rotate` tag as a matrix only when it does not encode (ffmpeg 6 has -display_rotation).
 */
const turn = (input: string, output: string) => ['-i', input, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', output];

interface Shape {
  name: string;
  file: string;
  /** ffmpeg runs that make `file` in the work folder, in order (names relative to it)… */
  steps?: string[][];
  /** …or the MediaRecorder type Chromium records it in, from its fake camera. */
  recorded?: string;
  /** Whether the source is browser-playable, so its first play file is the remux (`Original`), not a rung. */
  remuxed: boolean;
}

export const SHAPES: readonly Shape[] = [
  {
    // 30 fps for 2 s, then every third frame only: 10 fps, as a phone lowers its rate in the dark.
    name: 'variable frame rate',
    file: 'vfr.mp4',
    steps: [[...pattern(4, 30), ...tone(4), '-vf', "select='lt(t,2)+not(mod(n,3))'", '-fps_mode', 'vfr', ...x264, ...aac, 'vfr.mp4']],
    remuxed: true,
  },
  {
    // Cut at 1 s of a clip with one key frame, without encoding: the frames from 0 stay, and an edit list skips the first second.
    name: 'edit list',
    file: 'cut.mp4',
    steps: [
      [...pattern(4), ...tone(4), ...x264, '-g', '250', ...aac, 'whole.mp4'],
      ['-ss', '1', '-i', 'whole.mp4', '-c', 'copy', 'cut.mp4'],
    ],
    // Encoded: Firefox shows the frames such an edit list hides (playability.ts).
    remuxed: false,
  },
  {
    name: 'rotation (a portrait phone video)',
    file: 'turned.mp4',
    steps: [[...pattern(3), ...tone(3), ...x264, ...aac, 'upright.mp4'], turn('upright.mp4', 'turned.mp4')],
    remuxed: true,
  },
  { name: 'no audio', file: 'silent.mp4', steps: [[...pattern(3), ...x264, 'silent.mp4']], remuxed: true },
  {
    name: 'audio longer than video',
    file: 'long-audio.mp4',
    steps: [[...pattern(2), ...tone(3.5), ...x264, ...aac, 'long-audio.mp4']],
    remuxed: true,
  },
  {
    name: 'B-frames in closed GOPs',
    file: 'b-frames.mp4',
    steps: [
      [
        ...pattern(3),
        ...tone(3),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-bf',
        '3',
        '-g',
        '24',
        '-pix_fmt',
        'yuv420p',
        ...aac,
        'b-frames.mp4',
      ],
    ],
    remuxed: true,
  },
  {
    name: 'B-frames with open GOP',
    file: 'open-gop.mp4',
    steps: [
      [
        ...pattern(3),
        ...tone(3),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-pix_fmt',
        'yuv420p',
        '-bf',
        '3',
        '-g',
        '24',
        '-x264-params',
        'open-gop=1',
        ...aac,
        'open-gop.mp4',
      ],
    ],
    // Encoded: Chromium fails to decode the pictures before a key frame it seeked to (playability.ts).
    remuxed: false,
  },
  {
    // What the uploader records in Chromium and Firefox: a live stream, clusters as they come, no Duration and no Cues.
    name: 'MediaRecorder WebM (VP9/Opus, recorded by Chromium)',
    file: 'recorded.webm',
    recorded: 'video/webm;codecs=vp9,opus',
    remuxed: false,
  },
  {
    // Chromium's MediaRecorder MP4: fragments from an empty moov, H.264 and Opus.
    name: 'MediaRecorder MP4 (H.264/Opus, recorded by Chromium)',
    file: 'recorded.mp4',
    recorded: 'video/mp4;codecs=avc1,opus',
    remuxed: true,
  },
  {
    // As Safari's MediaRecorder writes an MP4: fragments from an empty moov, H.264 and AAC.
    name: 'MediaRecorder MP4 as Safari writes it (H.264/AAC, fragmented)',
    file: 'safari.mp4',
    steps: [[...pattern(3, 30), ...tone(3), ...x264, ...aac, '-movflags', '+frag_keyframe+empty_moov+default_base_moof', 'safari.mp4']],
    remuxed: true,
  },
  {
    // A phone's HEVC (hvc1, as an iPhone tags it) held sideways with its turn in the display matrix.
    name: 'phone HEVC, turned',
    file: 'phone.mov',
    steps: [
      [
        ...pattern(3, 30, '480x270'),
        ...tone(3),
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-x265-params',
        'log-level=error',
        '-tag:v',
        'hvc1',
        '-pix_fmt',
        'yuv420p',
        ...aac,
        'level.mov',
      ],
      turn('level.mov', 'phone.mov'),
    ],
    remuxed: false,
  },
];

interface FirstPlayFile {
  shape: string;
  remuxed: boolean;
  /** PlayURL at status 1, and its label (`Original` for the remux). */
  url: string;
  label: string;
  /** Whether the complete ladder still lists it: a remux is replaced by the rungs, the lightest rung stays. */
  listed: boolean;
  /** The source's length as ffprobe reads it (its packets' end when the header states none). */
  duration: number;
  /** The source's picture as shown (its turn applied): width over height. */
  aspect: number;
}

async function ffprobe(file: string, ...args: string[]): Promise<string> {
  return (await run('ffprobe', ['-v', 'error', ...args, file])).stdout;
}

/** The length a player should show: the header's, or where the latest stream's packets end. */
async function sourceDuration(file: string): Promise<number> {
  const stated = Number((await ffprobe(file, '-show_entries', 'format=duration', '-of', 'csv=p=0')).trim());
  if (Number.isFinite(stated) && stated > 0) return stated;
  const packets = await ffprobe(file, '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0');
  return Math.max(
    ...packets
      .split('\n')
      .map((line) => line.split(',').map(Number))
      .filter(([pts]) => Number.isFinite(pts))
      .map(([pts, duration]) => pts! + (Number.isFinite(duration) ? duration! : 0)),
  );
}

async function shownAspect(file: string): Promise<number> {
  const json = await ffprobe(file, '-select_streams', 'v:0', '-show_streams', '-print_format', 'json');
  const [stream] = (JSON.parse(json) as { streams: { width: number; height: number; side_data_list?: { rotation?: number }[] }[] }).streams;
  const turn = Math.abs(stream!.side_data_list?.find((side) => side.rotation !== undefined)?.rotation ?? 0);
  return turn === 90 || turn === 270 ? stream!.height / stream!.width : stream!.width / stream!.height;
}

export interface Matrix {
  files: FirstPlayFile[];
  remove(): void;
}

/**
 * Makes every shape, has `service` process each to status 1 and then to its full ladder, and
 * returns their first play files in {@link SHAPES}' order: the URLs a player got at status 1,
 * played after the rungs replaced a remux, as a page that loads its player late does.
 */
export async function processMatrix(service: TestService): Promise<Matrix> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-shapes-'));
  const files = await Promise.all(
    SHAPES.map(async (shape): Promise<FirstPlayFile> => {
      const source = join(work, shape.file);
      if (shape.recorded) writeFileSync(source, await recordInChromium(RECORDED_SECONDS, shape.recorded));
      for (const step of shape.steps ?? []) await run('ffmpeg', [...FFMPEG, ...step], { cwd: work });
      const [duration, aspect, { videoId, first }] = await Promise.all([
        sourceDuration(source),
        shownAspect(source),
        processSource(service, source, { name: shape.file, timeoutMs: 90_000 }),
      ]);
      const { VideoURL: url, BitrateLabel: label } = first.VideoPlayFile[0]!;
      await waitForLadder(service.db, videoId);
      const listed = (await getVideoReply(service, videoId)).VideoPlayFile.some((file) => file.VideoURL === url);
      return { shape: shape.name, remuxed: shape.remuxed, url, label, listed, duration, aspect };
    }),
  );
  return { files, remove: () => rmSync(work, { recursive: true, force: true }) };
}

/** What a `<video>` did with a file: its error, or its metadata and whether it played to the end. */
export interface Playback {
  error?: string;
  duration?: number;
  width?: number;
  height?: number;
  /** Frames the engine decoded by the end (getVideoPlaybackQuality). */
  frames?: number;
  ended?: boolean;
  /** `duration` when it ended: an engine may learn it only by reading to the end. */
  endDuration?: number;
}

/**
 * An expression that puts a muted `<video>` of `url` in the page and lets it play: once it has
 * played a little, it seeks to half a second before the end and plays on to `ended`. Its outcome
 * is `window.playback`, read by {@link playbackOf}.
 */
export function playScript(url: string): string {
  return `(() => {
    document.body.replaceChildren();
    const video = document.createElement('video');
    const report = (window.playback = {});
    const size = () => { if (video.videoWidth > 0) { report.width = video.videoWidth; report.height = video.videoHeight; } };
    video.muted = true;
    video.addEventListener('error', () => { report.error = video.error ? video.error.code + ' ' + video.error.message : 'error'; });
    video.addEventListener('loadedmetadata', () => {
      report.duration = video.duration;
      size();
      video.play().catch((error) => { report.error = 'play(): ' + error; });
    });
    let sought = false;
    video.addEventListener('timeupdate', () => {
      size();
      if (!sought && video.currentTime > 0.3) { sought = true; video.currentTime = Math.max(0, video.duration - 0.5); }
    });
    video.addEventListener('ended', () => {
      size();
      const quality = video.getVideoPlaybackQuality ? video.getVideoPlaybackQuality() : undefined;
      report.frames = quality ? quality.totalVideoFrames : undefined;
      report.endDuration = video.duration;
      report.ended = true;
    });
    video.src = ${JSON.stringify(url)};
    document.body.append(video);
    return true;
  })()`;
}

/** The report once the video ended or failed, else undefined (to poll). */
export const PLAYBACK_REPORT = 'window.playback && (window.playback.ended || window.playback.error) ? window.playback : null';

/**
 * When each rung's picture and sound start, and what that does to its picture against the source:
 * for a grainy and a testsrc 10 s 720p clip, the service's own ladder command
 * (`transcodeArgs`, the default preset, fragmented MP4) against a standalone encode of the top
 * rung with the same arguments written as a faststart MP4. Reports the top rung's SSIM against the
 * source frame by frame in time (ffmpeg's `ssim` filter) beside the standalone encode's, and each
 * rung's video and audio start (ffprobe's start_time) played whole and through its HLS media
 * playlist (the one the service serves, made here from the same index), with the A/V offset, and
 * the standalone encode's for reference. An audio start of about −23 ms is AAC's priming (1024
 * samples), which the edit list tells the decoder to drop, as in any MP4 with one.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readConfig } from '../src/server/config';
import { readFragmentIndex, type FragmentIndex } from '../src/server/media/fragmentIndex';
import { mediaPlaylist, playlistOf } from '../src/server/media/playlists';
import { chooseRenditions, transcodeArgs, type Rendition } from '../src/server/processing/renditions';
import { makeClip, type Clip } from './support/clips';
import { printTable } from './support/table';

const run = promisify(execFile);
const SECONDS = 10;
const CLIPS: Clip[] = [
  { name: 'grainy', seconds: SECONDS, width: 1280, height: 720, kind: 'mp4', grainy: true },
  { name: 'testsrc', seconds: SECONDS, width: 1280, height: 720, kind: 'mp4', grainy: false },
];

async function ssim(target: string, source: string, rendition: Rendition): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    ...['-nostdin', '-hide_banner', '-i', target, '-i', source],
    ...['-lavfi', `[1:v]scale=${rendition.width}:${rendition.height},setsar=1[ref];[0:v][ref]ssim`, '-f', 'null', '-'],
  ]);
  const all = /All:([\d.]+)/.exec(stderr);
  if (!all) throw new Error(`no SSIM for ${target}`);
  return Number(all[1]);
}

/** start_time of the first video and audio stream, in seconds. */
async function starts(target: string): Promise<{ video: number; audio: number }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,start_time', '-of', 'json', target]);
  const streams = (JSON.parse(stdout) as { streams: { codec_type: string; start_time: string }[] }).streams;
  const of = (kind: string) => Number(streams.find((stream) => stream.codec_type === kind)!.start_time);
  return { video: of('video'), audio: of('audio') };
}

/** The rung's media playlist beside it, as the service makes it per request. */
function writePlaylist(dir: string, file: string): string {
  const index = readFragmentIndex(readFileSync(join(dir, file)));
  if (!index || 'needBytes' in index) throw new Error(`${file} is not a fragmented rung`);
  const path = join(dir, playlistOf(file));
  writeFileSync(path, mediaPlaylist(file, index as FragmentIndex));
  return path;
}

const ms = (seconds: number) => (seconds * 1000).toFixed(1);

export async function rungStartBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-rung-start-'));
  const config = readConfig({});
  const threads = availableParallelism();
  const encoder = { preset: config.x264Preset };
  const ssimRows: (string | number)[][] = [];
  const startRows: (string | number)[][] = [];
  try {
    for (const clip of CLIPS) {
      const source = await makeClip(work, clip);
      const dir = mkdtempSync(join(work, `${clip.name}-`));
      const rungs = chooseRenditions(clip.width, clip.height);
      await run(
        'ffmpeg',
        transcodeArgs(
          source,
          rungs.map((rendition) => ({ rendition, path: join(dir, rendition.file) })),
          threads,
          config.maxSourcePixels,
          encoder,
        ),
      );
      const top = rungs[0]!;
      const standalone = join(work, `${clip.name}-standalone.mp4`);
      const alone = transcodeArgs(source, [{ rendition: top, path: standalone }], threads, config.maxSourcePixels, encoder);
      await run(
        'ffmpeg',
        alone.map((arg) => (arg.startsWith('+frag_keyframe') ? '+faststart' : arg)),
      );
      const [ladder, single] = [await ssim(join(dir, top.file), source, top), await ssim(standalone, source, top)];
      ssimRows.push([clip.name, top.label, ladder.toFixed(4), single.toFixed(4), (ladder - single).toFixed(4)]);
      const reference = await starts(standalone);
      startRows.push([
        clip.name,
        `${top.label} standalone`,
        ms(reference.video),
        ms(reference.audio),
        ms(reference.video - reference.audio),
        '',
        '',
        '',
      ]);
      for (const rendition of rungs) {
        const whole = await starts(join(dir, rendition.file));
        const hls = await starts(writePlaylist(dir, rendition.file));
        startRows.push([
          clip.name,
          rendition.label,
          ms(whole.video),
          ms(whole.audio),
          ms(whole.video - whole.audio),
          ms(hls.video),
          ms(hls.audio),
          ms(hls.video - hls.audio),
        ]);
      }
    }
    console.log(`\nTop rung against the source, x264 ${encoder.preset} (the default), ${threads} threads, 10 s 720p:`);
    printTable(['clip', 'rung', 'SSIM ladder (fragmented)', 'SSIM standalone (faststart)', 'Δ'], ssimRows);
    console.log('\nEach rung’s start (ms; one frame is 33.3), played whole and through its HLS media playlist:');
    printTable(['clip', 'rung', 'MP4 video', 'MP4 audio', 'MP4 A/V', 'HLS video', 'HLS audio', 'HLS A/V'], startRows);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

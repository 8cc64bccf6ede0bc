/**
 * The ladder's encoder settings side by side: for a grainy and a
 * clean 10 s 720p clip, the service's own ffmpeg command for its three rungs (one decode, split
 * to one x264 per rung: renditions.ts) with each x264 preset or option set, in interleaved rounds.
 * Reports the CPU-seconds per output minute (ffmpeg's `-benchmark`: user + system time), the ratio
 * to today's `veryfast`, and each rung's SSIM against the source scaled to its size (ffmpeg's
 * `ssim` filter), with its difference to `veryfast`; then, for the default preset, one job with
 * both threads against two jobs with one thread each.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { readConfig } from '../src/server/config';
import { decoderMaxPixels } from '../src/server/processing/probe';
import { chooseRenditions, transcodeArgs, type EncoderSettings, type RenditionOutput } from '../src/server/processing/renditions';
import { makeClip, type Clip } from './support/clips';
import { fixed, printTable } from './support/table';

const run = promisify(execFile);
const ROUNDS = 3;
const SECONDS = 10;
const CLIPS: Clip[] = [
  { name: 'grainy', seconds: SECONDS, width: 1280, height: 720, kind: 'mp4', grainy: true },
  { name: 'clean', seconds: SECONDS, width: 1280, height: 720, kind: 'mp4', grainy: false },
];
/** The rule: no rung below today's preset minus this. */
const SSIM_SLACK = 0.01;
const BASELINE: EncoderSettings = { preset: 'veryfast' };
const CANDIDATES: EncoderSettings[] = [
  BASELINE,
  { preset: 'faster' },
  { preset: 'veryfast', x264Params: 'subme=1:me=dia' },
  { preset: 'superfast' },
  { preset: 'ultrafast' },
];
const label = (encoder: EncoderSettings) => encoder.preset + (encoder.x264Params ? ` ${encoder.x264Params}` : '');

/** One encode of the ladder; its CPU-seconds as ffmpeg reports them, and its wall time. */
async function encode(source: string, outputs: RenditionOutput[], encoder: EncoderSettings, threads: number) {
  const args = transcodeArgs(source, outputs, threads, readConfig({}).maxSourcePixels, encoder);
  // -benchmark reports at the info level: user and system time of the whole run.
  const loud = args.map((arg) => (arg === 'error' ? 'info' : arg));
  const started = performance.now();
  const { stderr } = await run('ffmpeg', ['-benchmark', ...loud], { maxBuffer: 64 * 1024 * 1024 });
  const wall = (performance.now() - started) / 1000;
  const times = /utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
  if (!times) throw new Error(`ffmpeg printed no benchmark line: ${stderr.slice(-500)}`);
  return { cpu: Number(times[1]) + Number(times[2]), wall };
}

/** SSIM of a rung against the source scaled to the rung's size (the 'All' figure). */
async function ssim(rung: string, source: string, width: number, height: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-nostdin',
    '-hide_banner',
    '-max_pixels',
    String(decoderMaxPixels(readConfig({}).maxSourcePixels)),
    '-i',
    rung,
    '-i',
    source,
    '-lavfi',
    `[1:v]scale=${width}:${height},setsar=1[ref];[0:v][ref]ssim`,
    '-f',
    'null',
    '-',
  ]);
  const all = /All:([\d.]+)/.exec(stderr);
  if (!all) throw new Error(`no SSIM for ${rung}`);
  return Number(all[1]);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function ladderPresetsBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-presets-'));
  const threads = availableParallelism();
  const defaultPreset = readConfig({}).x264Preset;
  try {
    for (const clip of CLIPS) {
      const source = await makeClip(work, clip);
      const rungs = chooseRenditions(clip.width, clip.height);
      const outputsOf = (index: number) => rungs.map((rendition) => ({ rendition, path: join(work, `${index}-${rendition.file}`) }));
      const cpu = CANDIDATES.map(() => [] as number[]);
      // Rounds interleave the candidates, so a burst of load elsewhere falls on all of them alike.
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, encoder] of CANDIDATES.entries())
          cpu[index]!.push((await encode(source, outputsOf(index), encoder, threads)).cpu);
      }
      const scores = await Promise.all(
        CANDIDATES.map((_, index) =>
          Promise.all(outputsOf(index).map(({ rendition, path }) => ssim(path, source, rendition.width, rendition.height))),
        ),
      );
      const perMinute = cpu.map((values) => (median(values) * 60) / clip.seconds);
      console.log(`\n${clip.name} ${clip.height}p ${clip.seconds} s, ${threads} threads, median of ${ROUNDS} interleaved rounds:`);
      printTable(
        ['x264', 'CPU-s per output min', 'ratio to veryfast', ...rungs.map((r) => `SSIM ${r.label} (Δ)`), `within ${SSIM_SLACK}`],
        CANDIDATES.map((encoder, index) => [
          label(encoder),
          fixed(perMinute[index]!),
          fixed(perMinute[index]! / perMinute[0]!, 2),
          ...scores[index]!.map((score, rung) => `${score.toFixed(4)} (${(score - scores[0]![rung]!).toFixed(4)})`),
          scores[index]!.every((score, rung) => score >= scores[0]![rung]! - SSIM_SLACK) ? 'yes' : 'NO',
        ]),
      );
    }

    // Two sources at once: one job with every thread, one after the other, against two jobs of one thread each side by side.
    const source = await makeClip(work, CLIPS[0]!);
    const rungs = chooseRenditions(CLIPS[0]!.width, CLIPS[0]!.height);
    const outputs = (tag: string) => rungs.map((rendition) => ({ rendition, path: join(work, `${tag}-${rendition.file}`) }));
    const encoder = { preset: defaultPreset };
    const rows: (string | number)[][] = [];
    const serial = { cpu: [] as number[], wall: [] as number[] };
    const parallel = { cpu: [] as number[], wall: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      const a = await encode(source, outputs('a'), encoder, threads);
      const b = await encode(source, outputs('b'), encoder, threads);
      serial.wall.push((performance.now() - started) / 1000);
      serial.cpu.push(a.cpu + b.cpu);
      started = performance.now();
      const both = await Promise.all([encode(source, outputs('c'), encoder, 1), encode(source, outputs('d'), encoder, 1)]);
      parallel.wall.push((performance.now() - started) / 1000);
      parallel.cpu.push(both[0].cpu + both[1].cpu);
    }
    rows.push([`1 job × ${threads} threads, one after the other`, fixed(median(serial.wall)), fixed(median(serial.cpu))]);
    rows.push(['2 jobs × 1 thread, side by side', fixed(median(parallel.wall)), fixed(median(parallel.cpu))]);
    console.log(`\nTwo grainy 720p ${SECONDS} s sources, x264 ${defaultPreset} (the default), median of ${ROUNDS}:`);
    printTable(['jobs', 'wall s', 'CPU-s'], rows);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

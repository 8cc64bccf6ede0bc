/**
 * Playable first, complete later: on the real queue and ffmpeg, from the
 * upload's last byte (the source stored, status 5) to status 1, and to the full ladder (no job
 * left), with the CPU-seconds the service and its ffmpeg children spent per minute of output.
 * Sources made by ffmpeg here: H.264/AAC MP4 (remuxed first) and VP9/Opus WebM (encoded).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mediaDir } from '../src/server/media/paths';
import { markSourceStored } from '../src/server/processing/pipeline';
import { VideoStatus } from '../src/shared/videoStatus';
import { startTestService, type TestService } from '../test/support/service';
import { registerVideo } from '../test/uploadHelpers';
import { makeClip, type Clip } from './support/clips';
import { processCpuSeconds } from './support/cpu';
import { fixed, printTable } from './support/table';

/** One video's processing may take this long before the bench gives up. */
const LIMIT_MS = 900_000;

interface Source extends Clip {
  /** Whether the bench waits for the whole ladder (a long grainy 1080p one takes many minutes on 2 cores). */
  ladder: boolean;
}

const SOURCES: Source[] = [
  { name: 'testsrc', seconds: 10, width: 1280, height: 720, kind: 'mp4', grainy: false, ladder: true },
  { name: 'grainy', seconds: 10, width: 1280, height: 720, kind: 'mp4', grainy: true, ladder: true },
  { name: 'grainy', seconds: 60, width: 1920, height: 1080, kind: 'mp4', grainy: true, ladder: false },
  // Lightest rung first: the target is status 1 within 0.3 × the duration (docs/benchmarks.md).
  { name: 'testsrc', seconds: 60, width: 1280, height: 720, kind: 'webm', grainy: false, ladder: true },
];

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + LIMIT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${LIMIT_MS} ms`);
    await new Promise((wake) => setTimeout(wake, 20));
  }
}

async function timeOne(service: TestService, file: string, source: Source) {
  const videoId = await registerVideo(service);
  const name = `source.${source.kind}`;
  const dir = mediaDir(service.dataDir, videoId);
  mkdirSync(dir, { recursive: true });
  copyFileSync(file, join(dir, name));
  // This process and the children it waited for: the service runs in-process, ffmpeg are its children.
  const cpuStart = processCpuSeconds('self', { children: true });
  const start = performance.now();
  if (!(await markSourceStored(service.context, videoId, name))) throw new Error('the video did not move to status 5');
  const { stores } = service.context;
  const playable = await until('status 1', async () => {
    const video = (await stores.videos.get(videoId))!;
    if (video.status === VideoStatus.TranscodingFailed) throw new Error(`transcoding failed: ${video.statusReason}`);
    return video.status === VideoStatus.Normal ? (performance.now() - start) / 1000 : undefined;
  });
  const first = (await stores.playFiles.forVideo(videoId)).map((play) => play.label).join(' ');
  let ladder: number | undefined;
  let cpu: number | undefined;
  let last = '';
  if (source.ladder) {
    ladder = await until('the full ladder', async () => {
      const active = (await stores.jobs.forVideo(videoId)).some((job) => job.state === 'queued' || job.state === 'running');
      return active ? undefined : (performance.now() - start) / 1000;
    });
    cpu = processCpuSeconds('self', { children: true }) - cpuStart;
    last = (await stores.playFiles.forVideo(videoId)).map((play) => play.label).join(' ');
  }
  return { playable, first, ladder, cpu, last };
}

/** `only`: the sources of one kind, when measuring one path (e.g. the WebM alone, through `tsx -e`). */
export async function playableFirstBench(only?: Source['kind']): Promise<void> {
  const sources = SOURCES.filter((source) => only === undefined || source.kind === only);
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-playable-'));
  const rows: (string | number)[][] = [];
  try {
    for (const source of sources) {
      const file = await makeClip(work, source);
      // A service per source, so a ladder left running (ladder: false) does not slow the next one.
      const service = await startTestService();
      try {
        const { playable, first, ladder, cpu, last } = await timeOne(service, file, source);
        const outputMinutes = source.seconds / 60;
        rows.push([
          `${source.name} ${source.seconds} s ${source.height}p ${source.kind === 'mp4' ? 'H.264/AAC MP4' : 'VP9/Opus WebM'}`,
          fixed(statSync(file).size / 1024 ** 2, 1),
          first,
          fixed(playable, 2),
          fixed(playable / source.seconds, 2),
          ladder === undefined ? '–' : fixed(ladder, 1),
          ladder === undefined ? '–' : fixed(source.seconds / ladder, 2),
          cpu === undefined ? '–' : fixed(cpu / outputMinutes, 0),
          last || '–',
        ]);
      } finally {
        await service.stop(true);
      }
    }
    console.log('last byte = the source stored (status 5); default PROCESSING_CONCURRENCY; one video at a time');
    console.log('CPU-s per output minute: the service process and its ffmpeg children, from status 5 to the full ladder\n');
    printTable(
      [
        'source',
        'MB',
        'at status 1',
        's to status 1',
        'status 1 / duration',
        's to full ladder',
        'x realtime (ladder)',
        'CPU-s / output min',
        'full ladder',
      ],
      rows,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await playableFirstBench();

/**
 * Processing wall time on the real queue and ffmpeg: a 10 s 1280x720 video from "stored" to
 * status 1, transcoded (three renditions, then pictures) and with needHandleSepcial (the source
 * kept, pictures only), for an easy and a grainy source, under the default PROCESSING_CONCURRENCY
 * and with one job owning all cores.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mediaDir } from '../src/server/media/paths';
import { markSourceStored } from '../src/server/processing/pipeline';
import { VideoStatus } from '../src/shared/videoStatus';
import { makeTestVideo } from '../test/support/media';
import { startTestService, type TestService } from '../test/support/service';
import { registerVideo } from '../test/uploadHelpers';
import { makeClip } from './support/clips';
import { fixed, printTable } from './support/table';

const SECONDS = 10;
const WIDTH = 1280;
const HEIGHT = 720;
/** One video's processing may take this long before the bench gives up. */
const PROCESSING_LIMIT_MS = 180_000;

/** Stores the source as a finished upload would and times the queue from there to status 1. */
async function timeProcessing(
  service: TestService,
  source: string,
  needHandleSpecial: boolean,
): Promise<{ seconds: number; playFiles: string }> {
  const videoId = await registerVideo(service);
  const dir = mediaDir(service.dataDir, videoId);
  mkdirSync(dir, { recursive: true });
  copyFileSync(source, join(dir, 'source.mp4'));
  const start = performance.now();
  if (!(await markSourceStored(service.context, videoId, 'source.mp4', { needHandleSpecial })))
    throw new Error('the video did not move to status 5');
  const deadline = Date.now() + PROCESSING_LIMIT_MS;
  for (;;) {
    const video = (await service.context.stores.videos.get(videoId))!;
    if (video.status === VideoStatus.Normal) break;
    if (video.status === VideoStatus.TranscodingFailed) throw new Error(`transcoding failed: ${video.statusReason}`);
    if (Date.now() > deadline) throw new Error(`video still in status ${video.status} after ${PROCESSING_LIMIT_MS} ms`);
    await new Promise((wake) => setTimeout(wake, 20));
  }
  const seconds = (performance.now() - start) / 1000;
  const playFiles = (await service.context.stores.playFiles.forVideo(videoId)).map((play) => play.label).join(' ');
  return { seconds, playFiles };
}

export async function processingBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-processing-'));
  try {
    const sources = [
      { name: 'testsrc 15 fps', file: await makeTestVideo(work, 'plain.mp4', { width: WIDTH, height: HEIGHT, seconds: SECONDS }) },
      {
        name: 'grainy 30 fps',
        file: await makeClip(work, { name: 'grainy', seconds: SECONDS, width: WIDTH, height: HEIGHT, kind: 'mp4', grainy: true }),
      },
    ];
    const rows: (string | number)[][] = [];
    for (const concurrency of [2, 1]) {
      const service = await startTestService({ env: { PROCESSING_CONCURRENCY: String(concurrency) } });
      try {
        for (const source of sources) {
          for (const needHandleSpecial of [false, true]) {
            const { seconds, playFiles } = await timeProcessing(service, source.file, needHandleSpecial);
            rows.push([
              source.name,
              needHandleSpecial ? 'needHandleSepcial' : 'transcode',
              concurrency,
              // As transcode.ts shares the cores among the jobs that may run at once.
              Math.max(1, Math.floor(availableParallelism() / concurrency)),
              playFiles,
              fixed(seconds, 2),
              fixed(SECONDS / seconds, 2),
            ]);
          }
        }
      } finally {
        await service.stop(true);
      }
    }
    console.log(
      `sources: ${SECONDS} s ${WIDTH}x${HEIGHT} H.264 + AAC made by ffmpeg; wall time from status 5 (stored) to status 1 (playable)`,
    );
    console.log('transcode: renditions, then pictures; needHandleSepcial: the source kept as the play file, pictures only\n');
    printTable(['source', 'path', 'PROCESSING_CONCURRENCY', 'ffmpeg threads', 'play files', 'seconds', 'x realtime'], rows);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await processingBench();

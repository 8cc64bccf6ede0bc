/**
 * Server-side download (SourceFileGetType 2) through `downloadSource`, as the processing queue
 * calls it: throughput and the process's RSS growth for a 256 MiB source on 127.0.0.1, served
 * with and without a Content-Length by a server in another process (SOURCE_URL_ALLOW_PRIVATE=1).
 */
import { fork } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mediaDir } from '../src/server/media/paths';
import { downloadSource } from '../src/server/processing/download';
import { startTestService, type TestService } from '../test/support/service';
import { registerVideo } from '../test/uploadHelpers';
import { sampleRss } from './support/memory';
import { median } from './support/stats';
import { fixed, MIB, printTable } from './support/table';

const SIZE = 256 * MIB;
const REPEATS = 3;
/** One download may take this long before it is stopped as timed out. */
const DOWNLOAD_LIMIT_MS = 120_000;

function startSourceServer(): Promise<{ origin: string; stop(): void }> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./support/sourceServer.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    child.once('message', (port) => resolve({ origin: `http://127.0.0.1:${port as number}`, stop: () => child.disconnect() }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`source server exited with ${code}`)));
  });
}

async function downloadOnce(service: TestService, url: string, size = SIZE) {
  // A type-1 video stays in status 8, so the queue leaves it alone while the bench downloads for it.
  const video = { ...(await service.context.stores.videos.get(await registerVideo(service)))!, source_path: url };
  const rss = sampleRss();
  const start = performance.now();
  const file = await downloadSource(service.context, video, AbortSignal.timeout(DOWNLOAD_LIMIT_MS));
  const seconds = (performance.now() - start) / 1000;
  const memory = rss.stop();
  const stored = join(mediaDir(service.dataDir, video.id), file);
  if (statSync(stored).size !== size) throw new Error(`stored ${statSync(stored).size} bytes of ${size}`);
  rmSync(stored);
  return { seconds, memory };
}

export async function downloadBench(): Promise<void> {
  const source = await startSourceServer();
  const service = await startTestService({ env: { SOURCE_URL_ALLOW_PRIVATE: '1' } });
  try {
    // One small download first, so the first measured one does not pay for loading and compiling the code.
    await downloadOnce(service, `${source.origin}/sized/${8 * MIB}`, 8 * MIB);
    const rows: (string | number)[][] = [];
    for (const kind of ['sized', 'chunked'] as const) {
      const runs = [];
      for (let run = 0; run < REPEATS; run++) runs.push(await downloadOnce(service, `${source.origin}/${kind}/${SIZE}`));
      const seconds = median(runs.map((run) => run.seconds));
      rows.push([
        kind === 'sized' ? 'Content-Length' : 'chunked, no length',
        `${SIZE / MIB} MiB`,
        fixed(seconds, 2),
        fixed(SIZE / MIB / seconds, 0),
        fixed(runs[0]!.memory.before, 0),
        fixed(Math.max(...runs.map((run) => run.memory.peakGrowth)), 1),
        fixed(Math.max(...runs.map((run) => run.memory.afterGrowth)), 1),
      ]);
    }
    console.log('downloadSource from a server on 127.0.0.1 (another process) to DATA_DIR; RSS of the service process, MiB\n');
    printTable(['reply', 'size', `seconds (median of ${REPEATS})`, 'MiB/s', 'RSS before', 'RSS peak +', 'RSS after +'], rows);
  } finally {
    await service.stop(true);
    source.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await downloadBench();

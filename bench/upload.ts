/**
 * Upload through the real tus endpoint with tus-js-client in Node, as the uploader does in the
 * browser (page boot, ticket on every request): throughput and the service's RSS growth for a
 * few sizes and chunk sizes, then an upload cut at half and resumed from a reloaded page.
 * The client runs in another process, so the RSS sampled here is the service's alone.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UploadPageBoot } from '../src/shared/uploadPage';
import { VideoStatus } from '../src/shared/videoStatus';
import { startTestService, type TestService } from '../test/support/service';
import { openUploader, registerVideo, sha256 } from '../test/uploadHelpers';
import type { Child } from './support/child';
import { makeRandomFile } from './support/files';
import { sampleRss, type RssFigures } from './support/memory';
import { median } from './support/stats';
import { fixed, MIB, mib, printTable } from './support/table';
import { startTusClient, type TusJob, type TusRun } from './support/tusUpload';

const CASES: { mebibytes: number; chunkSize: number }[] = [
  { mebibytes: 64, chunkSize: 8 * MIB },
  { mebibytes: 64, chunkSize: Infinity },
  { mebibytes: 256, chunkSize: 8 * MIB },
  { mebibytes: 256, chunkSize: Infinity },
];
/** One upload may take this long before the bench gives up on it. */
const UPLOAD_LIMIT_MS = 120_000;
const REPEATS = 3;

type TusClient = Child<TusJob, TusRun>;

function upload(
  client: TusClient,
  boot: UploadPageBoot,
  file: string,
  chunkSize: number,
  resume: { uploadUrl?: string; stopAfter?: number } = {},
): Promise<TusRun> {
  return client.run({ endpoint: boot.tusEndpoint, ticket: boot.ticket, file, chunkSize, timeLimitMs: UPLOAD_LIMIT_MS, ...resume });
}

/** The source the finished upload became; its job is left to fail (random bytes are no video) before the next run. */
export async function storedSource(service: TestService, videoId: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const video = (await service.context.stores.videos.get(videoId))!;
    if (video.status === VideoStatus.TranscodingFailed || video.status === VideoStatus.Normal) break;
    await new Promise((wake) => setTimeout(wake, 20));
  }
  return join(service.dataDir, 'media', videoId, (await service.context.stores.videos.get(videoId))!.sourceFile);
}

interface Measured {
  patches: number;
  seconds: number;
  memory: RssFigures;
}

async function measureOnce(service: TestService, client: TusClient, file: string, chunkSize: number): Promise<Measured> {
  const videoId = await registerVideo(service);
  const boot = await openUploader(service, videoId);
  const rss = sampleRss();
  const sent = await upload(client, boot, file, chunkSize);
  const memory = rss.stop();
  const stored = await storedSource(service, videoId);
  const size = statSync(stored).size;
  if (size !== statSync(file).size) throw new Error(`stored ${size} bytes of ${statSync(file).size}`);
  // Only one copy at a time stays on disk.
  rmSync(stored);
  return { patches: sent.patches, seconds: sent.seconds, memory };
}

/** Each case {@link REPEATS} times: the median time, and the highest RSS any run reached. */
async function throughputRows(service: TestService, client: TusClient, files: Map<number, string>): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  for (const { mebibytes, chunkSize } of CASES) {
    const runs: Measured[] = [];
    for (let run = 0; run < REPEATS; run++) runs.push(await measureOnce(service, client, files.get(mebibytes)!, chunkSize));
    const seconds = median(runs.map((run) => run.seconds));
    rows.push([
      `${mebibytes} MiB`,
      Number.isFinite(chunkSize) ? `${chunkSize / MIB} MiB` : 'one PATCH',
      runs[0]!.patches,
      fixed(seconds, 2),
      fixed(mebibytes / seconds, 0),
      fixed(runs[0]!.memory.before, 0),
      fixed(Math.max(...runs.map((run) => run.memory.peakGrowth)), 1),
      fixed(Math.max(...runs.map((run) => run.memory.afterGrowth)), 1),
    ]);
  }
  return rows;
}

async function resumeRow(service: TestService, client: TusClient, file: string): Promise<(string | number)[]> {
  const size = statSync(file).size;
  const videoId = await registerVideo(service);
  const first = await upload(client, await openUploader(service, videoId), file, 8 * MIB, { stopAfter: size / 2 });
  // A reloaded page learns the upload and its offset from the service.
  const reloaded = await openUploader(service, videoId);
  if (!reloaded.resume || reloaded.resume.uploadUrl !== first.url) throw new Error('the reloaded page offers nothing to resume');
  const second = await upload(client, reloaded, file, 8 * MIB, { uploadUrl: reloaded.resume.uploadUrl });
  const stored = await storedSource(service, videoId);
  const same = sha256(await readFile(stored)) === sha256(await readFile(file));
  return [
    `${mib(size, 0)} MiB`,
    mib(first.bytes),
    mib(reloaded.resume.offset),
    mib(second.bytes),
    second.patches,
    fixed(second.seconds, 2),
    same ? 'yes' : 'NO',
  ];
}

export async function uploadBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-upload-'));
  const service = await startTestService();
  const client = startTusClient();
  try {
    const sizes = [...new Set(CASES.map((entry) => entry.mebibytes))];
    const files = new Map(await Promise.all(sizes.map(async (size) => [size, await makeRandomFile(work, `${size}.bin`, size)] as const)));
    // One small upload first, so the first measured one does not pay for loading and compiling the code.
    await upload(client, await openUploader(service, await registerVideo(service)), await makeRandomFile(work, 'warm.bin', 1), MIB);

    console.log('tus-js-client (another Node process) -> tus endpoint on 127.0.0.1; RSS of the service process, MiB\n');
    printTable(
      ['file', 'chunk', 'PATCHes', `seconds (median of ${REPEATS})`, 'MiB/s', 'RSS before', 'RSS peak +', 'RSS after +'],
      await throughputRows(service, client, files),
    );
    console.log('\nresume: cut after half the file (8 MiB chunks), page reloaded, the same file resumed\n');
    printTable(
      ['file', 'sent before cut', 'offset offered', 'sent after resume', 'PATCHes', 'seconds', 'stored = sent'],
      [await resumeRow(service, client, files.get(64)!)],
    );
  } finally {
    client.stop();
    await service.stop(true);
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await uploadBench();

/**
 * Upload through the real tus endpoint with tus-js-client in Node, as the uploader does in the
 * browser (page boot, ticket on every request): throughput and the process's RSS growth for a
 * few sizes and chunk sizes, then an upload cut at half and resumed from a reloaded page.
 * The client reads the file from disk slice by slice, so RSS growth is what the service holds.
 */
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Upload, type UploadOptions } from 'tus-js-client';
import { TICKET_HEADER, type UploadPageBoot } from '../src/shared/uploadPage';
import { VideoStatus } from '../src/server/storage/videos';
import { startTestService, type TestService } from '../test/support/service';
import { openUploader, registerVideo, sha256 } from '../test/uploadHelpers';
import { makeRandomFile } from './support/files';
import { sampleRss, type RssFigures } from './support/memory';
import { median } from './support/stats';
import { fixed, MIB, mib, printTable } from './support/table';

const CASES: { mebibytes: number; chunkSize: number }[] = [
  { mebibytes: 64, chunkSize: 8 * MIB },
  { mebibytes: 64, chunkSize: Infinity },
  { mebibytes: 256, chunkSize: 8 * MIB },
  { mebibytes: 256, chunkSize: Infinity },
];
/** One upload may take this long before the bench gives up on it. */
const UPLOAD_LIMIT_MS = 120_000;
const REPEATS = 3;

interface Sent {
  url: string;
  patches: number;
  /** Bytes the service accepted in this run's PATCHes. */
  bytes: number;
}

/**
 * Runs one tus-js-client upload to its end (or until `stopAfter` bytes are accepted, when it is
 * aborted as a closed tab would).
 */
function upload(boot: UploadPageBoot, file: string, chunkSize: number, extra: Partial<UploadOptions> & { stopAfter?: number } = {}): Promise<Sent> {
  const sent: Sent = { url: '', patches: 0, bytes: 0 };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void client.abort();
      reject(new Error(`upload not done within ${UPLOAD_LIMIT_MS} ms`));
    }, UPLOAD_LIMIT_MS);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      sent.url = client.url ?? '';
      if (error) reject(error);
      else resolve(sent);
    };
    const client = new Upload(createReadStream(file), {
      endpoint: boot.tusEndpoint,
      uploadUrl: extra.uploadUrl ?? null,
      chunkSize,
      retryDelays: null,
      storeFingerprintForResuming: false,
      headers: { [TICKET_HEADER]: boot.ticket },
      metadata: { filename: 'bench.mp4', filetype: 'video/mp4', fingerprint: 'fp-bench' },
      onChunkComplete(chunk, accepted) {
        sent.patches++;
        sent.bytes += chunk;
        if (extra.stopAfter !== undefined && accepted >= extra.stopAfter) void client.abort().then(() => finish());
      },
      onSuccess: () => finish(),
      onError: (error) => finish(error),
    });
    client.start();
  });
}

/** The source the finished upload became; its job is left to fail (random bytes are no video) before the next run. */
async function storedSource(service: TestService, videoId: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const video = service.context.videos.get(videoId)!;
    if (video.status === VideoStatus.TranscodingFailed || video.status === VideoStatus.Normal) break;
    await new Promise((wake) => setTimeout(wake, 20));
  }
  return join(service.dataDir, 'media', videoId, service.context.videos.get(videoId)!.source_file);
}

interface Measured {
  patches: number;
  seconds: number;
  memory: RssFigures;
}

async function measureOnce(service: TestService, file: string, chunkSize: number): Promise<Measured> {
  const videoId = await registerVideo(service);
  const boot = await openUploader(service, videoId);
  const rss = sampleRss();
  const start = performance.now();
  const sent = await upload(boot, file, chunkSize);
  const seconds = (performance.now() - start) / 1000;
  const memory = rss.stop();
  const stored = await storedSource(service, videoId);
  const size = statSync(stored).size;
  if (size !== statSync(file).size) throw new Error(`stored ${size} bytes of ${statSync(file).size}`);
  // Only one copy at a time stays on disk.
  rmSync(stored);
  return { patches: sent.patches, seconds, memory };
}

/** Each case {@link REPEATS} times: the median time, and the highest RSS any run reached. */
async function throughputRows(service: TestService, files: Map<number, string>): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  for (const { mebibytes, chunkSize } of CASES) {
    const runs: Measured[] = [];
    for (let run = 0; run < REPEATS; run++) runs.push(await measureOnce(service, files.get(mebibytes)!, chunkSize));
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

async function resumeRow(service: TestService, file: string): Promise<(string | number)[]> {
  const size = statSync(file).size;
  const videoId = await registerVideo(service);
  const first = await upload(await openUploader(service, videoId), file, 8 * MIB, { stopAfter: size / 2 });
  // A reloaded page learns the upload and its offset from the service.
  const reloaded = await openUploader(service, videoId);
  if (!reloaded.resume || reloaded.resume.uploadUrl !== first.url) throw new Error('the reloaded page offers nothing to resume');
  const start = performance.now();
  const second = await upload(reloaded, file, 8 * MIB, { uploadUrl: reloaded.resume.uploadUrl });
  const seconds = (performance.now() - start) / 1000;
  const stored = await storedSource(service, videoId);
  const same = sha256(await readFile(stored)) === sha256(await readFile(file));
  return [`${mib(size, 0)} MiB`, mib(first.bytes), mib(reloaded.resume.offset), mib(second.bytes), second.patches, fixed(seconds, 2), same ? 'yes' : 'NO'];
}

export async function uploadBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-upload-'));
  const service = await startTestService();
  try {
    const sizes = [...new Set(CASES.map((entry) => entry.mebibytes))];
    const files = new Map(await Promise.all(sizes.map(async (size) => [size, await makeRandomFile(work, `${size}.bin`, size)] as const)));
    // One small upload first, so the first measured one does not pay for loading and compiling the code.
    await upload(await openUploader(service, await registerVideo(service)), await makeRandomFile(work, 'warm.bin', 1), MIB);

    console.log('tus-js-client in Node -> tus endpoint on 127.0.0.1; RSS of the whole process (service and client), MiB\n');
    printTable(['file', 'chunk', 'PATCHes', `seconds (median of ${REPEATS})`, 'MiB/s', 'RSS before', 'RSS peak +', 'RSS after +'], await throughputRows(service, files));
    console.log('\nresume: cut after half the file (8 MiB chunks), page reloaded, the same file resumed\n');
    printTable(['file', 'sent before cut', 'offset offered', 'sent after resume', 'PATCHes', 'seconds', 'stored = sent'], [await resumeRow(service, files.get(64)!)]);
  } finally {
    await service.stop(true);
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await uploadBench();

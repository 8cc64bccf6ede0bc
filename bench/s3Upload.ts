/**
 * Upload throughput into S3 (a throwaway OpenStack Swift with s3api on loopback,
 * test/support/s3.ts), the tus ingest against the bucket's own speed in one run: the same bytes
 * sent by @aws-sdk/client-s3 as one multipart upload of 8 MiB parts, one at a time and
 * S3_PART_CONCURRENCY at once, then through the service (tus-js-client in another process), as
 * one PATCH and in 8 MiB PATCHes. For the tus rows: the S3 calls the service made per upload
 * (counted by middleware on its S3 client), its peak RSS above idle and its peak temporary bytes
 * (part files). Last, one 1 GiB whole-file upload for the memory and temporary-space bounds.
 */
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../src/server/config';
import { s3ClientFor } from '../src/server/storage/s3Client';
import { startS3 } from '../test/support/s3';
import { startTestService, type TestService } from '../test/support/service';
import { openUploader, registerVideo } from '../test/uploadHelpers';
import { makeRandomFile } from './support/files';
import { sampleRss } from './support/memory';
import { median } from './support/stats';
import { fixed, MIB, printTable } from './support/table';
import { startTusClient } from './support/tusUpload';

const MEBIBYTES = 128;
const LARGE_MEBIBYTES = 1024;
const PART = 8 * MIB;
const CONCURRENCY = 4;
const REPEATS = 3;

/** One multipart upload of `file` in 8 MiB parts, `concurrency` parts at once: the bucket's own speed. */
async function rawMultipart(client: S3Client, bucket: string, key: string, file: string, concurrency: number): Promise<void> {
  const size = statSync(file).size;
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const etags: string[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index * PART < size; index = next++) {
      const start = index * PART;
      const end = Math.min(size, start + PART) - 1;
      const reply = await client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId,
          PartNumber: index + 1,
          Body: createReadStream(file, { start, end }),
          ContentLength: end - start + 1,
        }),
      );
      etags[index] = reply.ETag!;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await client.send(
    new CompleteMultipartUploadCommand({
      Bucket: bucket,
      Key: key,
      UploadId,
      MultipartUpload: { Parts: etags.map((ETag, index) => ({ ETag, PartNumber: index + 1 })) },
    }),
  );
}

/** Counts the S3 calls a service makes, by command, between `reset()`s. */
function countCalls(service: TestService): { reset(): void; counts(): Map<string, number> } {
  let counts = new Map<string, number>();
  service.context.files.bucket!.client.middlewareStack.add(
    (next, context) => (args) => {
      const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
      // The processing job that follows reads the finished source: not the upload's.
      const key = (args.input as { Key?: string }).Key ?? '';
      if (!(name === 'GetObject' && key.startsWith('media/'))) counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return { reset: () => (counts = new Map()), counts: () => counts };
}

/** The highest total of part files in the temporary folder while some work runs. */
function sampleTempBytes(everyMs = 20): { stop(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    let total = 0;
    for (const name of readdirSync(tmpdir())) {
      if (!name.startsWith('ovu-part-')) continue;
      try {
        total += statSync(join(tmpdir(), name)).size;
      } catch {
        // sent and removed meanwhile
      }
    }
    peak = Math.max(peak, total);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

const callsText = (counts: Map<string, number>) =>
  `${[...counts.values()].reduce((sum, n) => sum + n, 0)}: ${[...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`)
    .join(', ')}`;

export async function s3UploadBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-s3-'));
  const s3 = await startS3();
  const client = startTusClient();
  let service: TestService | undefined;
  let raw: S3Client | undefined;
  try {
    const file = await makeRandomFile(work, 'upload.bin', MEBIBYTES);
    const size = statSync(file).size;
    const settings: S3Settings = await s3.newBucket();
    raw = s3ClientFor(settings);
    service = await startTestService({
      env: { ...s3.env(settings), S3_PART_CONCURRENCY: String(CONCURRENCY) },
      config: { maxUploadBytesFlash: 2 * LARGE_MEBIBYTES * MIB },
    });
    const calls = countCalls(service);
    const rawRows: { name: string; mibps: number }[] = [];
    for (const concurrency of [1, CONCURRENCY]) {
      const seconds: number[] = [];
      for (let run = 0; run <= REPEATS; run++) {
        const key = `raw-${concurrency}-${run}`;
        const started = performance.now();
        await rawMultipart(raw, settings.bucket, key, file, concurrency);
        // The first run warms the code paths up and is not counted.
        if (run > 0) seconds.push((performance.now() - started) / 1000);
        await raw.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
      }
      rawRows.push({
        name: `@aws-sdk/client-s3 multipart, ${concurrency === 1 ? 'one part at a time' : `${concurrency} parts at once`}`,
        mibps: MEBIBYTES / median(seconds),
      });
    }
    const [sequential, parallel] = rawRows as [(typeof rawRows)[0], (typeof rawRows)[0]];

    const tusUpload = async (file: string, chunkSize: number) => {
      const videoId = await registerVideo(service!);
      const boot = await openUploader(service!, videoId);
      calls.reset();
      const rss = sampleRss();
      const temp = sampleTempBytes();
      const sent = await client.run({ endpoint: boot.tusEndpoint, ticket: boot.ticket, file, chunkSize, timeLimitMs: 600_000 });
      const memory = rss.stop();
      const tempPeak = temp.stop();
      const key = `media/${videoId}/source.mp4`;
      const stored = (await raw!.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key }))).ContentLength;
      if (stored !== statSync(file).size) throw new Error(`stored ${stored} bytes of ${statSync(file).size}`);
      await raw!.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
      return { seconds: sent.seconds, patches: sent.patches, memory, tempPeak, calls: new Map(calls.counts()) };
    };
    const rows: (string | number)[][] = rawRows.map((row) => [row.name, fixed(row.mibps, 0), '', '', '', '']);
    for (const chunkSize of [Infinity, PART]) {
      const runs: Awaited<ReturnType<typeof tusUpload>>[] = [];
      for (let run = 0; run <= REPEATS; run++) {
        const measured = await tusUpload(file, chunkSize);
        if (run > 0) runs.push(measured);
      }
      const mibps = MEBIBYTES / median(runs.map((run) => run.seconds));
      const against = chunkSize === Infinity ? parallel : sequential;
      rows.push([
        `tus, ${chunkSize === Infinity ? 'one PATCH' : `${chunkSize / MIB} MiB PATCHes (${runs[0]!.patches})`}`,
        fixed(mibps, 0),
        `${fixed(mibps / against.mibps, 2)} of ${against === parallel ? `${CONCURRENCY} at once` : 'one at a time'}`,
        callsText(runs[0]!.calls),
        fixed(Math.max(...runs.map((run) => run.memory.peakGrowth)), 0),
        fixed(Math.max(...runs.map((run) => run.tempPeak)) / MIB, 0),
      ]);
    }
    console.log(
      `${MEBIBYTES} MiB of random bytes (${size} B), median of ${REPEATS} after a warm-up; S3_PART_CONCURRENCY=${CONCURRENCY}, 8 MiB parts\n`,
    );
    printTable(['upload', 'MiB/s', 'ratio', 'S3 calls by the service per upload', 'RSS peak above idle, MiB', 'temp peak, MiB'], rows);

    const large = await makeRandomFile(work, 'large.bin', LARGE_MEBIBYTES);
    rmSync(file);
    const one = await tusUpload(large, Infinity);
    console.log(
      `\n${LARGE_MEBIBYTES} MiB in one PATCH: ${fixed(LARGE_MEBIBYTES / one.seconds, 0)} MiB/s, service RSS ${fixed(one.memory.before, 0)} MiB at the start, peak ${fixed(one.memory.peakGrowth, 0)} MiB above it; temporary part files at most ${fixed(one.tempPeak / MIB, 0)} MiB (bound ${((CONCURRENCY + 1) * PART) / MIB} MiB); S3 calls ${callsText(one.calls)}`,
    );
  } finally {
    client.stop();
    raw?.destroy();
    await service?.stop(true);
    await s3.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await s3UploadBench();

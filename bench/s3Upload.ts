/**
 * Upload throughput into S3 (a throwaway OpenStack Swift with s3api on loopback,
 * test/support/s3.ts), the tus ingest against the bucket's own speed in one run: the same bytes
 * sent by @aws-sdk/client-s3 as one multipart upload of 8 MiB parts, one at a time and
 * S3_PART_CONCURRENCY at once, then through the service (tus-js-client in another process), as
 * one PATCH and in 8 MiB PATCHes, and in one PATCH with every part in a file, all in turn, round
 * after round. Each upload's CPU-seconds
 * are counted too (the machine's, this process's, the tus client's), since on one machine the
 * client, the service and the S3 server share the same cores. For the tus rows: the S3 calls the
 * service made per upload (counted by middleware on its S3 client), its peak RSS above idle and its
 * peak temporary bytes (part files). Last, one 1 GiB whole-file upload for the memory and
 * temporary-space bounds.
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
import { machineCpuSeconds, processCpuSeconds } from './support/cpu';
import { sampleRss } from './support/memory';
import { median } from './support/stats';
import { fixed, MIB, printTable } from './support/table';
import { startTusClient } from './support/tusUpload';

const MEBIBYTES = 128;
const LARGE_MEBIBYTES = 1024;
const PART = 8 * MIB;
const CONCURRENCY = 4;
const REPEATS = 5;

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

/** Resolves once the service has no processing job queued or running. */
async function jobsIdle(service: TestService): Promise<void> {
  for (;;) {
    const busy = await service.db.selectFrom('jobs').select('id').where('state', 'in', ['queued', 'running']).executeTakeFirst();
    if (!busy) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const callsText = (counts: Map<string, number>) =>
  `${[...counts.values()].reduce((sum, n) => sum + n, 0)}: ${[...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`)
    .join(', ')}`;

/** One upload's figures: its time, and the CPU-seconds the machine, this process and the tus client spent on it. */
interface Measured {
  seconds: number;
  /** Every core of the machine, busy (the S3 server's processes, this one, the tus client, anything else). */
  machineCpu: number;
  /** This process: the raw client, or the service. */
  ownCpu: number;
  /** The tus client's process (0 for the raw rows). */
  clientCpu: number;
}

/** Runs `upload` and measures it (see Measured). */
async function measure(clientPid: number, upload: () => Promise<number>): Promise<Measured> {
  const machine = machineCpuSeconds();
  const own = processCpuSeconds('self');
  const client = processCpuSeconds(clientPid);
  const seconds = await upload();
  return {
    seconds,
    machineCpu: machineCpuSeconds() - machine,
    ownCpu: processCpuSeconds('self') - own,
    clientCpu: processCpuSeconds(clientPid) - client,
  };
}

export async function s3UploadBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-s3-'));
  const s3 = await startS3();
  const client = startTusClient();
  let service: TestService | undefined;
  let filed: TestService | undefined;
  let raw: S3Client | undefined;
  try {
    const file = await makeRandomFile(work, 'upload.bin', MEBIBYTES);
    const size = statSync(file).size;
    const settings: S3Settings = await s3.newBucket();
    raw = s3ClientFor(settings);
    const serviceWith = (env: Record<string, string> = {}) =>
      startTestService({
        env: { ...s3.env(settings), S3_PART_CONCURRENCY: String(CONCURRENCY), ...env },
        config: { maxUploadBytesFlash: 2 * LARGE_MEBIBYTES * MIB },
      });
    service = await serviceWith();
    // The same service with every part in a temporary file, as before part buffers: what memory saves.
    filed = await serviceWith({ S3_PART_MEMORY_BYTES: '0' });
    const counters = new Map([service, filed].map((each) => [each, countCalls(each)]));
    // Part buffers are kept for reuse once taken: this process's growth over the whole run shows them.
    const startRss = process.memoryUsage.rss() / MIB;

    let rawUploads = 0;
    const rawUpload = async (concurrency: number): Promise<Measured> => {
      const key = `raw-${rawUploads++}`;
      const measured = await measure(client.pid, async () => {
        const started = performance.now();
        await rawMultipart(raw!, settings.bucket, key, file, concurrency);
        return (performance.now() - started) / 1000;
      });
      await raw!.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
      return measured;
    };
    const tusUpload = async (file: string, chunkSize: number, target = service!) => {
      const calls = counters.get(target)!;
      const videoId = await registerVideo(target);
      const boot = await openUploader(target, videoId);
      calls.reset();
      const rss = sampleRss();
      const temp = sampleTempBytes();
      let patches = 0;
      const measured = await measure(client.pid, async () => {
        const sent = await client.run({ endpoint: boot.tusEndpoint, ticket: boot.ticket, file, chunkSize, timeLimitMs: 600_000 });
        patches = sent.patches;
        return sent.seconds;
      });
      const memory = rss.stop();
      const tempPeak = temp.stop();
      // Processing reads the finished source out of the bucket (a GetObject of the whole file, on
      // the same cores): it would otherwise run during the next measured upload, which the raw
      // uploads never share.
      await jobsIdle(target);
      const key = `media/${videoId}/source.mp4`;
      const stored = (await raw!.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key }))).ContentLength;
      if (stored !== statSync(file).size) throw new Error(`stored ${stored} bytes of ${statSync(file).size}`);
      await raw!.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
      return { ...measured, patches, memory, tempPeak, calls: new Map(calls.counts()) };
    };

    // The uploads take turns, round after round, so a machine that speeds up as its code warms, or
    // slows down under other work, weighs on each alike; the first round is not counted. A tus row
    // is held against a raw one: one PATCH against parts at once, 8 MiB PATCHes against one at a time.
    type Run = Measured & Partial<Awaited<ReturnType<typeof tusUpload>>>;
    interface Kind {
      name: string;
      run: () => Promise<Run>;
      /** A raw upload: how the ratio names it. */
      short?: string;
      /** A tus upload: the raw one it is held against. */
      against?: Kind;
    }
    const oneAtATime: Kind = { name: '@aws-sdk/client-s3 multipart, one part at a time', run: () => rawUpload(1), short: 'one at a time' };
    const atOnce: Kind = {
      name: `@aws-sdk/client-s3 multipart, ${CONCURRENCY} parts at once`,
      run: () => rawUpload(CONCURRENCY),
      short: `${CONCURRENCY} at once`,
    };
    const kinds: Kind[] = [
      oneAtATime,
      atOnce,
      { name: 'tus, one PATCH', run: () => tusUpload(file, Infinity), against: atOnce },
      { name: `tus, ${PART / MIB} MiB PATCHes (${MEBIBYTES / (PART / MIB)})`, run: () => tusUpload(file, PART), against: oneAtATime },
      { name: 'tus, one PATCH, parts in files (S3_PART_MEMORY_BYTES=0)', run: () => tusUpload(file, Infinity, filed), against: atOnce },
    ];
    const runs = kinds.map(() => [] as Run[]);
    for (let round = 0; round <= REPEATS; round++)
      for (const [index, kind] of kinds.entries()) {
        const measured = await kind.run();
        if (round > 0) runs[index]!.push(measured);
      }
    const figures = runs.map((measured) => ({
      mibps: MEBIBYTES / median(measured.map((run) => run.seconds)),
      machineCpu: median(measured.map((run) => run.machineCpu)),
      ownCpu: median(measured.map((run) => run.ownCpu)),
      clientCpu: median(measured.map((run) => run.clientCpu)),
    }));
    const rows = kinds.map((kind, index) => {
      const figure = figures[index]!;
      const measured = runs[index]!;
      const baseline = kind.against && figures[kinds.indexOf(kind.against)]!;
      const tus = baseline !== undefined;
      return [
        kind.name,
        fixed(figure.mibps, 0),
        tus ? `${fixed(figure.mibps / baseline.mibps, 2)} of ${kind.against!.short}` : '',
        fixed(figure.machineCpu, 2),
        fixed(figure.ownCpu, 2),
        tus ? fixed(figure.clientCpu, 2) : '',
        fixed(figure.machineCpu - figure.ownCpu - figure.clientCpu, 2),
        tus ? fixed(baseline.machineCpu / figure.machineCpu, 2) : '',
        tus ? callsText(measured[0]!.calls!) : '',
        tus ? fixed(Math.max(...measured.map((run) => run.memory!.peakGrowth)), 0) : '',
        tus ? fixed(Math.max(...measured.map((run) => run.tempPeak!)) / MIB, 0) : '',
      ];
    });
    console.log(
      `${MEBIBYTES} MiB of random bytes (${size} B), median of ${REPEATS} interleaved rounds after a warm-up round; S3_PART_CONCURRENCY=${CONCURRENCY}, 8 MiB parts. CPU-seconds per upload: the machine's busy time, this process's (the raw client, or the service), the tus client's, and the rest (the S3 server, and anything else running). "CPU ratio": the raw row's machine CPU-seconds over the tus row's, the most the tus row can reach where the cores, not the network, set the pace.\n`,
    );
    printTable(
      [
        'upload',
        'MiB/s',
        'ratio',
        'CPU-s machine',
        'raw client / service',
        'tus client',
        'S3 server, rest',
        'CPU ratio',
        'S3 calls by the service per upload',
        'RSS peak above idle, MiB',
        'temp peak, MiB',
      ],
      rows,
    );

    const large = await makeRandomFile(work, 'large.bin', LARGE_MEBIBYTES);
    rmSync(file);
    const one = await tusUpload(large, Infinity);
    console.log(
      `\n${LARGE_MEBIBYTES} MiB in one PATCH: ${fixed(LARGE_MEBIBYTES / one.seconds, 0)} MiB/s, service RSS ${fixed(one.memory.before, 0)} MiB at the start (${fixed(startRss, 0)} MiB before the first upload), peak ${fixed(one.memory.peakGrowth, 0)} MiB above it; temporary part files at most ${fixed(one.tempPeak / MIB, 0)} MiB (bound ${((CONCURRENCY + 1) * PART) / MIB} MiB); S3 calls ${callsText(one.calls)}; CPU-seconds: machine ${fixed(one.machineCpu, 2)}, service ${fixed(one.ownCpu, 2)}, tus client ${fixed(one.clientCpu, 2)}`,
    );
  } finally {
    client.stop();
    raw?.destroy();
    await service?.stop(true);
    await filed?.stop(true);
    await s3.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await s3UploadBench();

/**
 * Upload throughput with the files in S3 (a throwaway OpenStack Swift with s3api on loopback,
 * test/support/s3.ts) against DATA_DIR on local disk: the same tus client, file and chunk size,
 * to one service each. Swift's object server writes to the same disk, so the difference is the
 * S3 path's own cost (part buffering, HTTP to the object store, multipart completion).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { startS3 } from '../test/support/s3';
import { startTestService, type TestService } from '../test/support/service';
import { openUploader, registerVideo } from '../test/uploadHelpers';
import { makeRandomFile } from './support/files';
import { median } from './support/stats';
import { fixed, MIB, printTable } from './support/table';
import { startTusClient } from './support/tusUpload';
import { storedSource } from './upload';

const MEBIBYTES = 128;
const CHUNK = 8 * MIB;
const REPEATS = 3;

export async function s3UploadBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-s3-'));
  const s3 = await startS3();
  const client = startTusClient();
  const services: TestService[] = [];
  try {
    const file = await makeRandomFile(work, 'upload.bin', MEBIBYTES);
    const size = statSync(file).size;
    const settings = await s3.newBucket();
    const targets = [
      { name: 'DATA_DIR (local disk)', service: await startTestService(), bucket: false },
      {
        name: `S3 (Swift on 127.0.0.1, started in ${(s3.startMs / 1000).toFixed(1)} s)`,
        service: await startTestService({ env: s3.env(settings) }),
        bucket: true,
      },
    ];
    services.push(...targets.map((target) => target.service));
    const rows: (string | number)[][] = [];
    for (const { name, service, bucket } of targets) {
      const seconds: number[] = [];
      for (let run = 0; run <= REPEATS; run++) {
        const videoId = await registerVideo(service);
        const boot = await openUploader(service, videoId);
        const sent = await client.run({ endpoint: boot.tusEndpoint, ticket: boot.ticket, file, chunkSize: CHUNK, timeLimitMs: 300_000 });
        const stored = bucket
          ? (await s3.client().send(new HeadObjectCommand({ Bucket: settings.bucket, Key: sent.url.split('/').pop()! }))).ContentLength
          : statSync(await storedSource(service, videoId)).size;
        if (stored !== size) throw new Error(`${name}: stored ${stored} bytes of ${size}`);
        // The first run warms the code paths up and is not counted.
        if (run > 0) seconds.push(sent.seconds);
      }
      const middle = median(seconds);
      rows.push([name, fixed(middle, 2), fixed(MEBIBYTES / middle, 0)]);
    }
    console.log(`tus-js-client (another Node process), ${MEBIBYTES} MiB of random bytes in ${CHUNK / MIB} MiB PATCHes\n`);
    printTable(['files in', `seconds (median of ${REPEATS})`, 'MiB/s'], rows);
  } finally {
    client.stop();
    for (const service of services) await service.stop(true);
    await s3.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await s3UploadBench();

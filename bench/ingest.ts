/**
 * Service ingest: how fast the tus endpoint takes in one whole-file PATCH (ticket check,
 * @tus/server, the file store, the finish) against a bare node:http handler piping a PUT body to a
 * file in the same DATA_DIR, both in this process, from a Node client in another process, round
 * by round in one run so both see the same machine. Target: the service ≥ 0.9× the bare pipe.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TICKET_HEADER } from '../src/shared/uploadPage';
import { startTestService, type TestService } from '../test/support/service';
import { openUploader, registerVideo, tusMetadata } from '../test/uploadHelpers';
import { startBodyClient, type BodyRun } from './support/bodyUpload';
import type { Child } from './support/child';
import { makeRandomFile } from './support/files';
import { sampleRss } from './support/memory';
import { startSink } from './support/sink';
import { median } from './support/stats';
import { fixed, printTable } from './support/table';
import { storedSource } from './upload';
import type { BodyJob } from './support/bodyUpload';

const MEBIBYTES = 512;
const ROUNDS = 5;

type BodyClient = Child<BodyJob, BodyRun>;

async function expectStatus(run: Promise<BodyRun>, status: number, what: string): Promise<number> {
  const done = await run;
  if (done.status !== status) throw new Error(`${what}: status ${done.status}`);
  return done.seconds;
}

/** One upload through the tus endpoint: creation (untimed), then the whole file in one PATCH (timed, finish included). */
async function serviceRound(service: TestService, client: BodyClient, file: string): Promise<number> {
  const videoId = await registerVideo(service);
  const boot = await openUploader(service, videoId);
  const size = statSync(file).size;
  const created = await fetch(boot.tusEndpoint, {
    method: 'POST',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
      'Upload-Metadata': tusMetadata({ filename: 'ingest.bin', fingerprint: 'fp' }),
      [TICKET_HEADER]: boot.ticket,
    },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new Error(`tus creation: ${created.status}`);
  const headers = {
    'Tus-Resumable': '1.0.0',
    'Upload-Offset': '0',
    'Content-Type': 'application/offset+octet-stream',
    [TICKET_HEADER]: boot.ticket,
  };
  const seconds = await expectStatus(client.run({ method: 'PATCH', url: location, headers, file }), 204, 'tus PATCH');
  const stored = await storedSource(service, videoId);
  if (statSync(stored).size !== size) throw new Error(`the service stored ${statSync(stored).size} of ${size} bytes`);
  rmSync(stored);
  return seconds;
}

export async function ingestBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ovu-bench-ingest-'));
  const service = await startTestService();
  const sinkDir = join(service.dataDir, 'bare-pipe');
  mkdirSync(sinkDir);
  const sink = await startSink(sinkDir);
  const client = startBodyClient();
  try {
    const file = await makeRandomFile(work, 'ingest.bin', MEBIBYTES);
    const bareRound = async () => {
      const seconds = await expectStatus(client.run({ method: 'PUT', url: `${sink.url}/bare.bin`, headers: {}, file }), 204, 'bare PUT');
      rmSync(join(sinkDir, 'bare.bin'));
      return seconds;
    };
    // A first round of each, unmeasured, so neither pays for compiling its code.
    await bareRound();
    await serviceRound(service, client, file);
    const bare: number[] = [];
    const tus: number[] = [];
    // CPU of this process (the receiver) per round: less noisy than wall time on a shared machine.
    const cpu = { bare: [] as number[], tus: [] as number[] };
    const cpuMs = async (work: () => Promise<number>, into: number[]) => {
      const before = process.cpuUsage();
      const seconds = await work();
      const used = process.cpuUsage(before);
      into.push((used.user + used.system) / 1000);
      return seconds;
    };
    let peak = 0;
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await cpuMs(bareRound, cpu.bare));
      const rss = sampleRss();
      tus.push(await cpuMs(() => serviceRound(service, client, file), cpu.tus));
      peak = Math.max(peak, rss.stop().peakGrowth);
    }
    const rate = (seconds: number[]) => MEBIBYTES / median(seconds);
    console.log(
      `${MEBIBYTES} MiB of random bytes, one request each, ${ROUNDS} rounds interleaved; Node client in another process -> 127.0.0.1\n`,
    );
    printTable(
      ['receiver', 'MiB/s (median)', 'min', 'max', 'ratio to bare pipe', 'CPU ms per MiB', 'RSS peak + MiB'],
      [
        [
          'bare node:http -> file',
          fixed(rate(bare), 0),
          fixed(MEBIBYTES / Math.max(...bare), 0),
          fixed(MEBIBYTES / Math.min(...bare), 0),
          '1.00',
          fixed(median(cpu.bare) / MEBIBYTES, 2),
          '-',
        ],
        [
          'tus PATCH (service)',
          fixed(rate(tus), 0),
          fixed(MEBIBYTES / Math.max(...tus), 0),
          fixed(MEBIBYTES / Math.min(...tus), 0),
          fixed(rate(tus) / rate(bare), 2),
          fixed(median(cpu.tus) / MEBIBYTES, 2),
          fixed(peak, 1),
        ],
      ],
    );
  } finally {
    client.stop();
    await sink.close();
    await service.stop(true);
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await ingestBench();

/**
 * The client started by `startBodyClient` in its own process: one request whose body is a file
 * streamed from disk by node:http, timed from the first byte sent to the reply's end.
 */
import { createReadStream, statSync } from 'node:fs';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { serveJobs } from './child';
import type { BodyJob, BodyRun } from './bodyUpload';

async function send(job: BodyJob): Promise<BodyRun> {
  const start = performance.now();
  const req = request(job.url, { method: job.method, headers: { ...job.headers, 'Content-Length': String(statSync(job.file).size) } });
  const replied = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  // 1 MiB reads: the client should never be what limits the figure.
  await pipeline(createReadStream(job.file, { highWaterMark: 1024 * 1024 }), req);
  const status = await replied;
  return { status, seconds: (performance.now() - start) / 1000 };
}

serveJobs(send);

/**
 * The upload client started by `startTusClient` in its own process: tus-js-client with the ticket on
 * every request, reading the file slice by slice from disk (an fs.ReadStream with a path), so it
 * holds no more of the file than the browser's uploader would.
 */
import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Upload } from 'tus-js-client';
import { TICKET_HEADER } from '../../src/shared/uploadPage';
import { serveJobs } from './child';
import type { TusJob, TusRun } from './tusUpload';

function upload(job: TusJob): Promise<TusRun> {
  const run: TusRun = { url: '', patches: 0, bytes: 0, seconds: 0 };
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void client.abort();
      reject(new Error(`upload not done within ${job.timeLimitMs} ms`));
    }, job.timeLimitMs);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      run.url = client.url ?? '';
      run.seconds = (performance.now() - start) / 1000;
      if (error) reject(error);
      else resolve(run);
    };
    const client = new Upload(createReadStream(job.file), {
      endpoint: job.endpoint,
      uploadUrl: job.uploadUrl ?? null,
      chunkSize: job.chunkSize,
      retryDelays: null,
      storeFingerprintForResuming: false,
      headers: { [TICKET_HEADER]: job.ticket },
      metadata: { filename: 'bench.mp4', filetype: 'video/mp4', fingerprint: 'fp-bench' },
      onChunkComplete(chunk, accepted) {
        run.patches++;
        run.bytes += chunk;
        if (job.stopAfter !== undefined && accepted >= job.stopAfter) void client.abort().then(() => finish());
      },
      onSuccess: () => finish(),
      onError: (error) => finish(error),
    });
    client.start();
  });
}

serveJobs(upload);

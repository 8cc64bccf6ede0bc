/**
 * `npm run bench`: each benchmark in turn, printing what it measured. Add new ones to the list.
 * `npm run bench -- upload api` runs only the named ones.
 */
import { availableParallelism, cpus } from 'node:os';
import { apiBench } from './api';
import { browserBench } from './browser';
import { downloadBench } from './download';
import { ingestBench } from './ingest';
import { ladderPresetsBench } from './ladderPresets';
import { pagingBench } from './paging';
import { playableFirstBench } from './playableFirst';
import { processingBench } from './processing';
import { quotaBench } from './quota';
import { rungStartBench } from './rungStart';
import { s3UploadBench } from './s3Upload';
import { sizeReport } from './size';
import { startupBench } from './startup';
import { uploadBench } from './upload';

const BENCHES: { name: string; title: string; run: () => void | Promise<void> }[] = [
  { name: 'size', title: 'size of the built browser files', run: sizeReport },
  { name: 'startup', title: 'start and stop of the built service', run: startupBench },
  { name: 'upload', title: 'tus upload: throughput, service RSS, resume', run: uploadBench },
  { name: 's3', title: 'tus ingest into S3 against the bucket’s own speed (raw multipart)', run: s3UploadBench },
  { name: 'ingest', title: 'service ingest: tus PATCH against a bare pipe to disk', run: ingestBench },
  { name: 'browser', title: 'the widget in Chromium: throughput against xhr and fetch, openUpload to interactive', run: browserBench },
  { name: 'api', title: 'API: latency and throughput', run: apiBench },
  { name: 'quota', title: "per-app quotas: another app's latency while one app is throttled", run: quotaBench },
  { name: 'paging', title: 'list paging with 100,000 videos on SQLite and PostgreSQL, and Get beside deep pages', run: pagingBench },
  { name: 'processing', title: 'processing: transcoding wall time', run: processingBench },
  { name: 'presets', title: 'processing: x264 presets for the ladder, CPU-seconds and SSIM', run: ladderPresetsBench },
  {
    name: 'rungstart',
    title: 'processing: each rung’s start offset, and the top rung’s SSIM beside a standalone encode',
    run: rungStartBench,
  },
  { name: 'playable', title: 'processing: last byte to status 1 (remux first) and to the full ladder', run: playableFirstBench },
  { name: 'download', title: 'server-side download: throughput, service RSS', run: downloadBench },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !BENCHES.some((bench) => bench.name === name));
if (unknown.length > 0) {
  console.error(`unknown bench ${unknown.join(', ')}; choose from ${BENCHES.map((bench) => bench.name).join(', ')}`);
  process.exit(2);
}

// Figures mean little without the machine they came from.
console.log(
  `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'})`,
);
for (const bench of BENCHES) {
  if (wanted.length > 0 && !wanted.includes(bench.name)) continue;
  const started = Date.now();
  console.log(`\n## ${bench.title}\n`);
  await bench.run();
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

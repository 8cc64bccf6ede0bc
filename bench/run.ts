/**
 * `npm run bench`: each benchmark in turn, printing what it measured. Add new ones to the list.
 * `npm run bench -- upload api` runs only the named ones.
 */
import { availableParallelism, cpus } from 'node:os';
import { apiBench } from './api';
import { downloadBench } from './download';
import { processingBench } from './processing';
import { sizeReport } from './size';
import { uploadBench } from './upload';

const BENCHES: { name: string; title: string; run: () => void | Promise<void> }[] = [
  { name: 'size', title: 'size of the built browser files', run: sizeReport },
  { name: 'upload', title: 'tus upload: throughput, service RSS, resume', run: uploadBench },
  { name: 'api', title: 'API: latency and throughput', run: apiBench },
  { name: 'processing', title: 'processing: transcoding wall time', run: processingBench },
  { name: 'download', title: 'server-side download: throughput, service RSS', run: downloadBench },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !BENCHES.some((bench) => bench.name === name));
if (unknown.length > 0) {
  console.error(`unknown bench ${unknown.join(', ')}; choose from ${BENCHES.map((bench) => bench.name).join(', ')}`);
  process.exit(2);
}

// Figures mean little without the machine they came from.
console.log(`${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'})`);
for (const bench of BENCHES) {
  if (wanted.length > 0 && !wanted.includes(bench.name)) continue;
  const started = Date.now();
  console.log(`\n## ${bench.title}\n`);
  await bench.run();
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/**
 * Start and stop of the built service as `npm start` runs it (`node scripts/start.mjs`, after
 * building when the build is stale, so no build is timed): milliseconds from spawn to the first
 * 200 from /readyz on a new DATA_DIR, then on restarts (median of 4), and from SIGTERM to exit
 * (median of 5), on a free port on 127.0.0.1. The aim: answering within 3 s.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './support/stats';
import { fixed, printTable } from './support/table';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = 5;

interface StartStop {
  readyMs: number;
  stopMs: number;
}

async function once(dataDir: string): Promise<StartStop> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const address = await new Promise<string>((found, reject) => {
    let text = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      text += chunk;
      const match = /"address":"(http:\/\/[^"]+)"/.exec(text);
      if (match) found(match[1]!);
    });
    void exited.then(() => reject(new Error(`the service exited before listening:\n${text}`)));
  });
  const deadline = Date.now() + 30_000;
  while ((await fetch(`${address}/readyz`).catch(() => undefined))?.status !== 200) {
    if (Date.now() > deadline) throw new Error('not ready within 30 s');
    await new Promise((wake) => setTimeout(wake, 10));
  }
  const readyMs = performance.now() - started;
  const stopping = performance.now();
  child.kill('SIGTERM');
  await exited;
  return { readyMs, stopMs: performance.now() - stopping };
}

export async function startupBench(): Promise<void> {
  if (spawnSync(process.execPath, ['scripts/start.mjs', '--build-only'], { cwd: ROOT, stdio: 'inherit' }).status !== 0)
    throw new Error('the build failed');
  const dataDir = mkdtempSync(join(tmpdir(), 'ovu-bench-startup-'));
  try {
    const runs: StartStop[] = [];
    // The first start creates the database; the rest open it, as a restart does.
    for (let run = 0; run < RUNS; run++) runs.push(await once(dataDir));
    console.log('node scripts/start.mjs (the built service, no rebuild)\n');
    printTable(
      ['first start: ready ms', 'restart: ready ms', 'SIGTERM to exit ms'],
      [
        [
          fixed(runs[0]!.readyMs, 0),
          fixed(median(runs.slice(1).map((run) => run.readyMs)), 0),
          fixed(median(runs.map((run) => run.stopMs)), 0),
        ],
      ],
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await startupBench();

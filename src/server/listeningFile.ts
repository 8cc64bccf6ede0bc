import { readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './storage/privateModes';

/**
 * Where a running service says it listens, in its DATA_DIR. The operator's CLI reads it when its
 * own environment does not say: an operator who started the service with `PORT=9000` and runs
 * `doctor` in another shell is asking about that service, not about the default port.
 */
const LISTENING_FILE = 'listening.json';

export interface ListeningRecord {
  pid: number;
  publicUrl: string;
}

export async function recordListening(dataDir: string, record: ListeningRecord): Promise<void> {
  const path = join(dataDir, LISTENING_FILE);
  // Renamed into place, so a reader never sees half a file.
  await writeFile(`${path}.${process.pid}`, JSON.stringify(record), { mode: PRIVATE_FILE_MODE });
  await rename(`${path}.${process.pid}`, path);
}

/** Removes the record, unless another process has written its own since. */
export async function forgetListening(dataDir: string): Promise<void> {
  if (readListening(dataDir)?.pid === process.pid) await rm(join(dataDir, LISTENING_FILE), { force: true });
}

/** The record of a service that is still running, or undefined (none, unreadable, or its process gone). */
export function readListening(dataDir: string): ListeningRecord | undefined {
  let record: Partial<ListeningRecord>;
  try {
    record = JSON.parse(readFileSync(join(dataDir, LISTENING_FILE), 'utf8')) as Partial<ListeningRecord>;
  } catch {
    return undefined;
  }
  if (typeof record.pid !== 'number' || typeof record.publicUrl !== 'string') return undefined;
  try {
    // Signal 0 only asks whether the process exists; a killed service leaves its record behind.
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return undefined;
  }
  return { pid: record.pid, publicUrl: record.publicUrl };
}

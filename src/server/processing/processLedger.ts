import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/privateModes';

/** What identifies a process we started even after our own death: its id, the kernel's start time for it, its program. */
interface LedgerEntry {
  pid: number;
  /** Field 22 of `/proc/<pid>/stat` (clock ticks since boot): a reused pid has another one. */
  startTime: string;
  command: string;
}

const ENTRY_FILE = /^(\d+)\.json$/;

/** The kernel's start time of `pid`, or undefined when it is gone (or has no /proc). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The program name (field 2) is in parentheses and may itself hold spaces or `)`.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); a zombie has exited already and only waits to be reaped.
    return fields[0] === 'Z' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
  } catch {
    return undefined;
  }
}

/**
 * The media tools (ffmpeg, ffprobe) this service has running, one file per process in
 * `DATA_DIR/processes`. Each runs as the leader of its own process group, so it and anything it
 * starts end together; a service killed with SIGKILL cannot stop them, so the next start reads
 * the files its predecessor left and ends those groups, after checking (start time, program)
 * that the pid still names the process we started and not a later one that got the same id.
 */
export class ProcessLedger {
  private readonly directory: string;

  constructor(dataDir: string) {
    this.directory = join(dataDir, 'processes');
  }

  record(pid: number, command: string): void {
    const startTime = startTimeOf(pid);
    // Without /proc nothing could later prove the pid is still ours, so nothing is recorded.
    if (startTime === undefined) return;
    mkdirSync(this.directory, { recursive: true, mode: PRIVATE_DIR_MODE });
    const entry: LedgerEntry = { pid, startTime, command };
    writeFileSync(join(this.directory, `${pid}.json`), JSON.stringify(entry), { mode: PRIVATE_FILE_MODE });
  }

  forget(pid: number): void {
    rmSync(join(this.directory, `${pid}.json`), { force: true });
  }

  /** How many media tools this service has running now (recorded ones: none without /proc). */
  running(): number {
    try {
      return readdirSync(this.directory).filter((name) => ENTRY_FILE.test(name)).length;
    } catch {
      return 0; // no ledger yet
    }
  }

  /** Ends the process groups a previous run left running; run at start-up, before any job. Returns how many. */
  endLeftovers(log: Logger): number {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return 0; // no ledger yet
    }
    let ended = 0;
    for (const name of names) {
      if (!ENTRY_FILE.test(name)) continue;
      const file = join(this.directory, name);
      const entry = readEntry(file);
      if (entry && startTimeOf(entry.pid) === entry.startTime && commandOf(entry.pid) === entry.command) {
        try {
          process.kill(-entry.pid, 'SIGKILL');
          ended++;
          log.warn('media tool left running by the previous run ended', { pid: entry.pid, command: entry.command });
        } catch (error) {
          log.error('media tool left running could not be ended', { pid: entry.pid, error: String(error) });
        }
      }
      rmSync(file, { force: true });
    }
    return ended;
  }
}

function readEntry(file: string): LedgerEntry | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Partial<LedgerEntry>;
    if (Number.isSafeInteger(entry.pid) && entry.pid! > 1 && typeof entry.startTime === 'string' && typeof entry.command === 'string') {
      return entry as LedgerEntry;
    }
  } catch {
    // a file cut short by the crash names nothing we could check
  }
  return undefined;
}

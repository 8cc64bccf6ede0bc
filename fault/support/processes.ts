import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  /** argv, as /proc/<pid>/cmdline holds it. */
  argv: string[];
}

/** The `/proc/<pid>/stat` fields from field 3 (state) on; the name before them may hold spaces. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie (a zombie has ended; it only waits for its parent to reap it). */
export function isRunning(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== undefined && fields[0] !== 'Z';
}

/** The running processes whose parent is `parent`. */
export function childrenOf(parent: number): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const fields = statFields(pid);
    if (!fields || fields[0] === 'Z' || Number(fields[1]) !== parent) continue;
    try {
      found.push({ pid, argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function waitUntil<T>(what: string, timeoutMs: number, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

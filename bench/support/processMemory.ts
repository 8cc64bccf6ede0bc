import { readdirSync, readFileSync } from 'node:fs';
import { MIB } from './table';

/** `/proc/<pid>/…` as text, or undefined once the process is gone. */
function procText(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Chromium's renderer processes under this one (playwright launches the browser as our child), by pid. */
export function rendererPids(): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    // The parent pid is the 4th field of stat, after the command in parentheses.
    const stat = procText(Number(name), 'stat');
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN;
    if (Number.isFinite(ppid)) parents.set(Number(name), ppid);
  }
  const isOurs = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  return [...parents.keys()].filter((pid) => isOurs(pid) && procText(pid, 'cmdline')?.includes('--type=renderer'));
}

function rssBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(procText(pid, 'status') ?? '')?.[1] ?? 0) * 1024;
}

/**
 * Chromium's renderers started for a round (those not in `existing`, taken before the round's
 * browser context was made) while some work runs, in MiB: the highest RSS any of them reached,
 * and the most any one of them grew from its first sample (the sender's memory rising with the
 * file would show there). Which renderer holds which frame is not known from outside, so both
 * are over all of the round's renderers (host page, upload frame, a spare). Linux only.
 */
export function sampleRendererRss(existing: ReadonlySet<number>, everyMs = 100): { stop(): { peak: number; growth: number } } {
  const first = new Map<number, number>();
  let peak = 0;
  let growth = 0;
  const sample = () => {
    for (const pid of rendererPids()) {
      if (existing.has(pid)) continue;
      const rss = rssBytes(pid);
      if (rss === 0) continue;
      if (!first.has(pid)) first.set(pid, rss);
      peak = Math.max(peak, rss);
      growth = Math.max(growth, rss - first.get(pid)!);
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peak: peak / MIB, growth: growth / MIB };
    },
  };
}

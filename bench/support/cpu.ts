import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: `/proc` counts CPU time in these ticks. */
export const CLOCK_TICKS = 100;

/**
 * CPU-seconds a process has used (user and system, not its children's), from `/proc/<pid>/stat`;
 * `self` for this one.
 */
export function processCpuSeconds(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After "pid (comm) ", state is field 3, so utime and stime (fields 14 and 15) are at 11 and 12.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** CPU-seconds every core of the machine has spent busy since boot (`/proc/stat`: all but idle and iowait). */
export function machineCpuSeconds(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  return [user, nice, system, irq, softirq, steal].reduce((sum, ticks) => sum + Number(ticks), 0) / CLOCK_TICKS;
}

import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: `/proc` counts CPU time in these ticks. */
const CLOCK_TICKS = 100;

/**
 * CPU-seconds a process has used (user and system), from `/proc/<pid>/stat`; `self` for this one.
 * With `children`, also those of the children it has waited for (ffmpeg under the service).
 */
export function processCpuSeconds(pid: number | 'self', { children = false } = {}): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After "pid (comm) ", state is field 3, so utime, stime, cutime and cstime (fields 14 to 17) are at 11 to 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (children ? [11, 12, 13, 14] : [11, 12]).reduce((sum, index) => sum + Number(fields[index]), 0) / CLOCK_TICKS;
}

/** CPU-seconds every core of the machine has spent busy since boot (`/proc/stat`: all but idle and iowait). */
export function machineCpuSeconds(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  return [user, nice, system, irq, softirq, steal].reduce((sum, ticks) => sum + Number(ticks), 0) / CLOCK_TICKS;
}

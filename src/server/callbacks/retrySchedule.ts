/** Delays after the 1st, 2nd, … failed attempt, as multiples of the base; the last one repeats. */
const MULTIPLIERS = [1, 3, 12, 60, 180, 360] as const;

/**
 * How long to wait after attempt number `failedAttempt` (1-based) failed. With the default base
 * of 10 s: 10 s, 30 s, 2 min, 10 min, 30 min, then every hour.
 */
export function retryDelayMs(failedAttempt: number, baseMs: number): number {
  const index = Math.min(Math.max(failedAttempt, 1), MULTIPLIERS.length) - 1;
  return baseMs * MULTIPLIERS[index]!;
}

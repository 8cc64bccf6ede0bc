import { Transform } from 'node:stream';

/** The window is sampled this many times, so "the last window" is exact to a tenth of it. */
const SAMPLES_PER_WINDOW = 10;

/** What {@link watchRate} found when it gave up on a download. */
interface RateShortfall {
  /** Bytes that arrived in the last window. */
  bytes: number;
  minBytesPerS: number;
  windowMs: number;
}

export interface RateWatch {
  /** Aborted once a whole window brought fewer than `minBytesPerS × windowMs / 1000` bytes. */
  signal: AbortSignal;
  /** Why `signal` fired; undefined while it has not. */
  shortfall(): RateShortfall | undefined;
  /** Passes the body through, counting its bytes. */
  meter(): Transform;
  /** Ends the sampling (the download finished or failed). */
  stop(): void;
}

/**
 * Watches a download's average rate over a sliding window, from now on. The idle timeout ends a
 * source that falls silent; this ends one that sends a byte just often enough to never be
 * silent, which would otherwise hold a download slot until the whole download's timeout.
 * `minBytesPerS` 0 watches nothing.
 */
export function watchRate(minBytesPerS: number, windowMs: number): RateWatch {
  const controller = new AbortController();
  let total = 0;
  let found: RateShortfall | undefined;
  // The total at each sample of the last window, oldest first, and the one before it.
  const totals = [0];
  const timer =
    minBytesPerS > 0
      ? setInterval(() => {
          totals.push(total);
          if (totals.length <= SAMPLES_PER_WINDOW) return;
          const bytes = total - totals.shift()!;
          if (bytes * 1000 >= minBytesPerS * windowMs) return;
          found = { bytes, minBytesPerS, windowMs };
          clearInterval(timer);
          controller.abort();
        }, windowMs / SAMPLES_PER_WINDOW)
      : undefined;
  // The download's own deadline keeps the process alive; this timer need not.
  timer?.unref();
  return {
    signal: controller.signal,
    shortfall: () => found,
    meter: () =>
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          total += chunk.length;
          callback(null, chunk);
        },
      }),
    stop: () => clearInterval(timer),
  };
}

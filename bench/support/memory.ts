import { MIB } from './table';

export interface RssFigures {
  /** MiB when sampling started. */
  before: number;
  /** Highest sample above `before`, in MiB. */
  peakGrowth: number;
  /** MiB at the end above `before`. */
  afterGrowth: number;
}

/**
 * Samples this process's resident set while some work runs. The service runs in this process,
 * so what it buffers shows here; a sample every few milliseconds catches a buffer that lives
 * only for one request.
 */
export function sampleRss(everyMs = 10): { stop(): RssFigures } {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const after = process.memoryUsage.rss();
      peak = Math.max(peak, after);
      return { before: before / MIB, peakGrowth: (peak - before) / MIB, afterGrowth: (after - before) / MIB };
    },
  };
}

/** Only the last few seconds count, so the speed follows the network instead of the whole history. */
const WINDOW_MS = 5000;
/** Below this much history the estimate jumps around too much to show. */
const MIN_SPAN_MS = 800;

export interface Estimate {
  bytesPerSecond: number;
  secondsLeft: number;
}

/** Speed and time left from timed progress samples; `reset` after a pause, so idle time does not count. */
export class SpeedMeter {
  private samples: { at: number; bytes: number }[] = [];

  add(at: number, bytes: number): void {
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[0]!.at > WINDOW_MS) this.samples.shift();
  }

  reset(): void {
    this.samples = [];
  }

  estimate(total: number): Estimate | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.at - first.at < MIN_SPAN_MS || last.bytes <= first.bytes) return null;
    const bytesPerSecond = ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
    return { bytesPerSecond, secondsLeft: (total - last.bytes) / bytesPerSecond };
  }
}

/** A sender that passes on at most one value per period, the latest one. */
export interface Throttled<T> {
  push(value: T): void;
  /** Sends the value still waiting, if any, at once (before a message that must come after it). */
  flush(): void;
}

/**
 * The first value goes out at once; values pushed within `periodMs` of a send wait, and only the
 * latest is sent when the period ends, so the last figure always arrives (a 100 % that came
 * 10 ms after 98 % is not lost) and no more than 1000 / periodMs go out per second.
 */
export function throttle<T>(send: (value: T) => void, periodMs: number): Throttled<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiting: { value: T } | undefined;
  const tick = () => {
    timer = undefined;
    if (!waiting) return;
    const { value } = waiting;
    waiting = undefined;
    send(value);
    timer = setTimeout(tick, periodMs);
  };
  return {
    push(value) {
      waiting = { value };
      if (!timer) tick();
    },
    flush() {
      clearTimeout(timer);
      tick();
    },
  };
}

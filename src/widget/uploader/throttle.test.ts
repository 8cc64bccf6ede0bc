import { afterEach, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

afterEach(() => vi.useRealTimers());

it('sends at most once per period, always the latest value, and the last one too', () => {
  vi.useFakeTimers();
  const sent: number[] = [];
  const progress = throttle((value: number) => sent.push(value), 100);
  for (let value = 1; value <= 25; value++) {
    progress.push(value);
    vi.advanceTimersByTime(10);
  }
  // 250 ms of pushes every 10 ms: at 0 ms the first, at 100 and 200 ms the latest pushed by then,
  // and the 25th (pushed at 240 ms) when its period ends.
  expect(sent).toEqual([1, 10, 20]);
  vi.advanceTimersByTime(100);
  expect(sent).toEqual([1, 10, 20, 25]);
  vi.advanceTimersByTime(1000);
  expect(sent).toEqual([1, 10, 20, 25]);
});

it('flush sends what waits at once and nothing twice', () => {
  vi.useFakeTimers();
  const sent: number[] = [];
  const progress = throttle((value: number) => sent.push(value), 100);
  progress.push(1);
  progress.push(2);
  progress.flush();
  expect(sent).toEqual([1, 2]);
  vi.advanceTimersByTime(500);
  progress.flush();
  expect(sent).toEqual([1, 2]);
});

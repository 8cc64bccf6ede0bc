import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './retrySchedule';

describe('retryDelayMs', () => {
  it('grows from the base to an hour with the default 10 s base, then stays there', () => {
    const minutes = [1, 2, 3, 4, 5, 6, 7, 9].map((attempt) => retryDelayMs(attempt, 10_000) / 60_000);
    expect(minutes).toEqual([1 / 6, 0.5, 2, 10, 30, 60, 60, 60]);
  });

  it('scales with the base, so tests can retry within milliseconds', () => {
    expect(retryDelayMs(1, 100)).toBe(100);
    expect(retryDelayMs(2, 100)).toBe(300);
  });
});

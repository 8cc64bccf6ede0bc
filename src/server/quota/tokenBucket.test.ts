import { describe, expect, it } from 'vitest';
import type { BucketState } from '../storage/quotaBuckets';
import { freshBucket, takeTokens, type BucketLimit } from './tokenBucket';

/** One token, as a request spends it. */
const spendToken = (state: BucketState, bucket: BucketLimit, now: number) => takeTokens(state, bucket, now, 1);

const limit: BucketLimit = { perSecond: 2, size: 4 };

/** Spends `count` tokens at `now`, carrying the state; returns the outcomes' granted flags. */
function spendMany(state: { tokens: number; updatedAt: number }, count: number, now: number) {
  const granted: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const spent = spendToken(state, limit, now);
    state = spent.next;
    granted.push(spent.outcome.granted);
  }
  return { state, granted };
}

describe('the token bucket', () => {
  it('lets a full burst through, then refuses with the seconds until the next token', () => {
    const { state, granted } = spendMany(freshBucket(limit, 0), 5, 0);
    expect(granted).toEqual([true, true, true, true, false]);
    expect(spendToken(state, limit, 0).outcome).toEqual({ granted: false, retryAfterMs: 500, retryAfterSeconds: 1 });
  });

  it('refills at its rate, never above its size', () => {
    const empty = spendMany(freshBucket(limit, 0), 4, 0).state;
    // 2 per second: after 1.5 s three tokens are back.
    expect(spendMany(empty, 4, 1500).granted).toEqual([true, true, true, false]);
    // After a long quiet spell, still only the bucket's size.
    expect(spendMany(empty, 5, 3_600_000).granted).toEqual([true, true, true, true, false]);
  });

  it('does not spend a token on a refusal, so retrying early does not push the wait out', () => {
    const empty = spendMany(freshBucket(limit, 0), 4, 0).state;
    const refused = spendToken(empty, limit, 100);
    expect(refused.outcome.granted).toBe(false);
    expect(refused.next.tokens).toBeCloseTo(0.2);
    expect(spendToken(refused.next, limit, 500).outcome.granted).toBe(true);
  });

  it('says how long a slow bucket takes: 1 a minute is 60 s', () => {
    const slow: BucketLimit = { perSecond: 1 / 60, size: 1 };
    const empty = spendToken(freshBucket(slow, 0), slow, 0).next;
    expect(spendToken(empty, slow, 15_000).outcome).toMatchObject({ granted: false, retryAfterSeconds: 45 });
  });

  it('takes several tokens at once, never more than it holds', () => {
    expect(takeTokens(freshBucket(limit, 0), limit, 0, 3)).toEqual({
      next: { tokens: 1, updatedAt: 0 },
      outcome: { granted: true, taken: 3 },
    });
    // 2.5 tokens after a spell: two are whole, so two are taken of the five asked for.
    expect(takeTokens({ tokens: 0.5, updatedAt: 0 }, limit, 1000, 5).outcome).toEqual({ granted: true, taken: 2 });
    expect(takeTokens({ tokens: 0.5, updatedAt: 0 }, limit, 0, 5).outcome).toMatchObject({ granted: false, retryAfterSeconds: 1 });
  });

  it('mints nothing from a clock behind the last update (another instance, skewed), and never moves time back', () => {
    const empty = spendMany(freshBucket(limit, 10_000), 4, 10_000).state;
    const skewed = spendToken(empty, limit, 5_000);
    expect(skewed.outcome.granted).toBe(false);
    expect(skewed.next).toEqual({ tokens: 0, updatedAt: 10_000 });
  });
});

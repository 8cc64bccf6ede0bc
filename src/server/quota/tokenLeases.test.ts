import { describe, expect, it } from 'vitest';
import { freshBucket, takeTokens, type BucketLimit } from './tokenBucket';
import { LEASE_LIFETIME_MS, leaseSize, TokenLeases, type TakeFromBucket } from './tokenLeases';

// The shared bucket here is the real arithmetic on a state in memory, as quotaBuckets.settle runs
// it on its row; what is counted is how often the leases go to it.
function sharedBucket(limit: BucketLimit, clock: { now: number }) {
  let state = freshBucket(limit, clock.now);
  const trips: number[] = [];
  const take: TakeFromBucket = async (wanted) => {
    trips.push(wanted);
    const result = takeTokens(state, limit, clock.now, wanted);
    state = result.next;
    return result.outcome;
  };
  return { take, trips };
}

describe('leases of a shared token bucket', () => {
  it('takes a tenth of a second of refill at a time, at least one token and at most the bucket', () => {
    expect(leaseSize({ perSecond: 50, size: 100 })).toBe(5);
    expect(leaseSize({ perSecond: 0.2, size: 1 })).toBe(1);
    expect(leaseSize({ perSecond: 1000, size: 20 })).toBe(20);
  });

  it('grants exactly what the shared bucket holds to spends at once, in one trip per lease', async () => {
    const limit = { perSecond: 50, size: 10 };
    const clock = { now: 0 };
    const shared = sharedBucket(limit, clock);
    const leases = new TokenLeases(() => clock.now);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => leases.spend('k', limit, shared.take)));
    expect(outcomes.filter((outcome) => outcome.granted)).toHaveLength(10);
    // Two leases of 5, then one trip that finds the bucket empty.
    expect(shared.trips).toEqual([5, 5, 5]);
  });

  it('refuses from memory until the bucket could refill a lease, then goes back to it', async () => {
    const limit = { perSecond: 50, size: 5 };
    const clock = { now: 0 };
    const shared = sharedBucket(limit, clock);
    const leases = new TokenLeases(() => clock.now);
    for (let i = 0; i < 5; i++) await leases.spend('k', limit, shared.take);
    expect(await leases.spend('k', limit, shared.take)).toEqual({ granted: false, retryAfterMs: 100, known: false });
    clock.now = 60;
    expect(await leases.spend('k', limit, shared.take)).toEqual({ granted: false, retryAfterMs: 40, known: true });
    expect(shared.trips).toHaveLength(2);
    clock.now = 100;
    expect(await leases.spend('k', limit, shared.take)).toEqual({ granted: true });
    expect(shared.trips).toHaveLength(3);
  });

  it('drops leased tokens left unspent for a second, so they cannot be saved up for a burst', async () => {
    const limit = { perSecond: 50, size: 100 };
    const clock = { now: 0 };
    const shared = sharedBucket(limit, clock);
    const leases = new TokenLeases(() => clock.now);
    await leases.spend('k', limit, shared.take);
    clock.now = LEASE_LIFETIME_MS;
    await leases.spend('k', limit, shared.take);
    expect(shared.trips).toEqual([5, 5]);
  });

  it('forgets the buckets of many keys as they go idle, but still knows one that is empty', async () => {
    const limit = { perSecond: 1 / 60, size: 1 };
    const clock = { now: 0 };
    const leases = new TokenLeases(() => clock.now);
    const buckets = Array.from({ length: 3 }, () => sharedBucket(limit, clock));
    for (const [i, bucket] of buckets.entries()) await leases.spend(`video-${i}`, limit, bucket.take);
    expect(await leases.spend('video-0', limit, buckets[0]!.take)).toMatchObject({ granted: false, known: false });
    // Past the leases' life: the spent ones are forgotten; video-0, known empty for a minute, is not.
    clock.now = 2 * LEASE_LIFETIME_MS;
    expect(await leases.spend('video-0', limit, buckets[0]!.take)).toMatchObject({ granted: false, known: true });
    expect(buckets[0]!.trips).toHaveLength(2);
    expect(await leases.spend('video-1', limit, buckets[1]!.take)).toMatchObject({ granted: false, known: false });
  });
});

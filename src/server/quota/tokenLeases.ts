import type { BucketLimit } from './tokenBucket';

/**
 * How much of a shared bucket one instance takes at a time: a tenth of a second of its refill
 * (at least one token, at most the bucket). At 50 requests a second that is one database
 * transaction per 5 granted requests instead of one each.
 */
const LEASE_SECONDS = 0.1;
/**
 * Leased tokens not spent within this are dropped, never given back: an instance cannot hoard
 * a quiet app's tokens and spend them in one burst long after (docs/operations.md#quotas).
 */
export const LEASE_LIFETIME_MS = 1000;

/** The shared bucket's answer to "take up to `wanted` tokens" (quotaBuckets.settle with takeTokens). */
export type TakeFromBucket = (wanted: number) => Promise<{ granted: true; taken: number } | { granted: false; retryAfterMs: number }>;

/**
 * What a spend comes to: granted, or refused until the shared bucket could refill a lease;
 * `known` when the instance already knew the bucket empty (a request of an app that did not wait).
 */
export type LeaseOutcome = { granted: true } | { granted: false; retryAfterMs: number; known: boolean };

/** One bucket as this instance holds it. */
interface Held {
  /** Tokens taken from the shared bucket and not yet spent. */
  tokens: number;
  /** When the unspent `tokens` are dropped. */
  expiresAt: number;
  /** Until then the shared bucket is known not to hold a lease's worth: refusals are answered here. */
  emptyUntil: number;
  /** The one trip to the shared bucket under way, which every spend arriving meanwhile waits for. */
  taking: Promise<void> | undefined;
}

export function leaseSize(limit: BucketLimit): number {
  return Math.max(1, Math.min(Math.floor(limit.size), Math.ceil(limit.perSecond * LEASE_SECONDS)));
}

/**
 * One instance's share of the shared token buckets (`quota_buckets`), so that a request spends a
 * token from memory: the instance takes a lease of tokens from the shared row in one
 * transaction, spends them locally, and goes back only when they are gone. A bucket found empty
 * is refused from memory until it could refill a lease, since only time adds tokens. So an app
 * hammering past its quota costs no database work, and concurrent spends make one trip, not one
 * each. Every token spent was taken from the shared row first, so instances together never
 * grant more than the bucket holds; leases only move when tokens are spent (docs/operations.md#quotas).
 */
export class TokenLeases {
  private readonly held = new Map<string, Held>();
  private prunedAt = 0;

  constructor(private readonly now: () => number) {}

  /** Spends one token of the bucket named `key` (its limit part of the key), taking a lease from `take` when none is held. */
  async spend(key: string, limit: BucketLimit, take: TakeFromBucket): Promise<LeaseOutcome> {
    this.prune();
    let held = this.held.get(key);
    if (!held) this.held.set(key, (held = { tokens: 0, expiresAt: 0, emptyUntil: 0, taking: undefined }));
    let known = true;
    for (;;) {
      const now = this.now();
      if (now >= held.expiresAt) held.tokens = 0;
      if (held.tokens >= 1) {
        held.tokens -= 1;
        return { granted: true };
      }
      if (now < held.emptyUntil) return { granted: false, retryAfterMs: held.emptyUntil - now, known };
      if (!held.taking) held.taking = this.takeLease(held, limit, take).finally(() => (held.taking = undefined));
      known = false;
      await held.taking;
    }
  }

  /**
   * Drops, at most once a lease lifetime, the buckets that hold nothing and are not known empty:
   * forgetting them changes no answer, and there is one per video's page, so they would pile up.
   */
  private prune(): void {
    const now = this.now();
    if (now - this.prunedAt < LEASE_LIFETIME_MS) return;
    this.prunedAt = now;
    for (const [key, held] of this.held) if (!held.taking && now >= held.expiresAt && now >= held.emptyUntil) this.held.delete(key);
  }

  private async takeLease(held: Held, limit: BucketLimit, take: TakeFromBucket): Promise<void> {
    const wanted = leaseSize(limit);
    const outcome = await take(wanted);
    const now = this.now();
    if (outcome.granted) {
      held.tokens += outcome.taken;
      held.expiresAt = now + LEASE_LIFETIME_MS;
    } else {
      // Until one token is back, and then until the rest of a lease is: one trip per lease, not per token.
      held.emptyUntil = now + outcome.retryAfterMs + ((wanted - 1) / limit.perSecond) * 1000;
    }
  }
}

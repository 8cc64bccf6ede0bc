import type { BucketState } from '../storage/quotaBuckets';

/** A token bucket's shape: it refills `perSecond` tokens a second, up to `size`. */
export interface BucketLimit {
  perSecond: number;
  size: number;
}

export interface Take {
  next: BucketState;
  /** Granted: how many tokens were taken (1 to the number asked for). Refused: how long until the bucket holds a token, exactly and in whole seconds (at least 1) for `Retry-After`. */
  outcome: { granted: true; taken: number } | { granted: false; retryAfterMs: number; retryAfterSeconds: number };
}

/** A bucket never touched before: full, so an app's first burst passes. */
export function freshBucket(limit: BucketLimit, now: number): BucketState {
  return { tokens: limit.size, updatedAt: now };
}

/**
 * Takes up to `wanted` whole tokens, at least one, when there is one. The bucket first refills for
 * the time since it was last touched; a clock behind that time (another instance's, skewed)
 * refills nothing and never moves the time back, so skew cannot mint tokens. A refusal takes
 * nothing, so a client retrying too early does not push its own wait further out; it is told how
 * many whole seconds (at least 1) until a token is there.
 */
export function takeTokens(state: BucketState, limit: BucketLimit, now: number, wanted: number): Take {
  const elapsedMs = Math.max(0, now - state.updatedAt);
  const tokens = Math.min(limit.size, state.tokens + (elapsedMs / 1000) * limit.perSecond);
  const next = { tokens, updatedAt: Math.max(now, state.updatedAt) };
  if (tokens >= 1) {
    const taken = Math.max(1, Math.min(wanted, Math.floor(tokens)));
    return { next: { ...next, tokens: tokens - taken }, outcome: { granted: true, taken } };
  }
  const retryAfterMs = ((1 - tokens) / limit.perSecond) * 1000;
  return { next, outcome: { granted: false, retryAfterMs, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) } };
}

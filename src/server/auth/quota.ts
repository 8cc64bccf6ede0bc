/**
 * An app's limits, from the optional `quota` object of its `APPS_FILE` entry. A field left out
 * takes the service-wide default (`APP_*` env, see config.ts); a field set to `null` lifts that
 * default for this app (no limit). Enforced by `src/server/quota/`.
 */
export interface AppQuota {
  /** API and SOAP requests per second: the token bucket's refill rate. */
  requestsPerSecond?: number | null;
  /** The bucket's size: requests that may come at once after a quiet spell. Default 2 × the rate. */
  requestsBurst?: number | null;
  /** tus creations (POST) per minute. */
  uploadsPerMinute?: number | null;
  /** Unfinished uploads at once. */
  uploadsInFlight?: number | null;
  /** Bytes stored for the app's videos: sources (uploaded or downloaded by the service) and renditions. */
  storageBytes?: number | null;
  /**
   * Upload-page loads per minute of each one video: what a browser holding the page's token can
   * spend, in a budget of its own, never the app's `requestsPerSecond`.
   */
  pagesPerVideoPerMinute?: number | null;
  /** tus creations per minute of each one video, spent before the app's `uploadsPerMinute`, so one page cannot use that up. */
  uploadsPerVideoPerMinute?: number | null;
}

type QuotaField = keyof AppQuota;

/** What each field accepts: a rate may be a fraction (0.5 per second), a count or size is whole. */
const FIELDS = {
  requestsPerSecond: { whole: false, min: 0, minIncluded: false, says: 'a number above 0' },
  requestsBurst: { whole: false, min: 1, minIncluded: true, says: 'a number of at least 1' },
  uploadsPerMinute: { whole: false, min: 0, minIncluded: false, says: 'a number above 0' },
  uploadsInFlight: { whole: true, min: 1, minIncluded: true, says: 'a whole number of at least 1' },
  storageBytes: { whole: true, min: 0, minIncluded: true, says: 'a whole number of bytes (0 or more)' },
  pagesPerVideoPerMinute: { whole: false, min: 0, minIncluded: false, says: 'a number above 0' },
  uploadsPerVideoPerMinute: { whole: false, min: 0, minIncluded: false, says: 'a number above 0' },
} as const satisfies Record<QuotaField, { whole: boolean; min: number; minIncluded: boolean; says: string }>;

const QUOTA_FIELDS = Object.keys(FIELDS) as QuotaField[];

/** Whether `value` fits `field`'s rule (a finite number, in range, whole where it must be). */
export function isQuotaValue(field: QuotaField, value: number): boolean {
  const rule = FIELDS[field];
  if (!Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER) return false;
  if (rule.whole && !Number.isInteger(value)) return false;
  return rule.minIncluded ? value >= rule.min : value > rule.min;
}

/** The words for `field`'s rule, for error messages here and in config.ts. */
export function quotaRule(field: QuotaField): string {
  return FIELDS[field].says;
}

/** Makes the error for a `quota` that is wrong: `message` follows its place, `field` is the field at fault. */
export type QuotaFailure = (message: string, field?: string) => Error;

/**
 * Checks a `quota` object. Unknown fields are refused, so a misspelt `requestPerSecond` fails at
 * start-up instead of silently lifting no limit. Messages quote nothing of the value (APPS_FILE
 * errors never print the file's content); the caller's `fail` says where it is.
 */
export function parseQuota(value: unknown, fail: QuotaFailure): AppQuota {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(' must be an object');
  const raw = value as Record<string, unknown>;
  const unknown = Object.keys(raw).find((key) => !(QUOTA_FIELDS as string[]).includes(key));
  if (unknown !== undefined) throw fail(` has an unknown field; known: ${QUOTA_FIELDS.join(', ')}`, unknown);
  const quota: AppQuota = {};
  for (const field of QUOTA_FIELDS) {
    if (!(field in raw)) continue;
    const given = raw[field];
    if (given !== null && (typeof given !== 'number' || !isQuotaValue(field, given))) {
      throw fail(`.${field} must be ${quotaRule(field)}, or null for no limit`, field);
    }
    quota[field] = given;
  }
  return quota;
}

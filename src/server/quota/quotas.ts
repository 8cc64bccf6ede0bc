import type { AppRecord } from '../auth/apps';
import type { AppQuota } from '../auth/quota';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import type { BucketName } from '../storage/quotaBuckets';
import type { Stores } from '../storage/stores';
import { freshBucket, takeTokens, type BucketLimit } from './tokenBucket';
import { TokenLeases } from './tokenLeases';

/** An app's limits with the service-wide defaults applied; undefined is no limit. */
export interface AppLimits {
  requests: BucketLimit | undefined;
  uploads: BucketLimit | undefined;
  uploadsInFlight: number | undefined;
  storageBytes: number | undefined;
  /** Each video's own: what the browser of its page can spend. */
  pagesPerVideo: BucketLimit | undefined;
  uploadsPerVideo: BucketLimit | undefined;
}

/** A bucket of `perMinute` tokens, refilled at that many a minute. */
const perMinute = (rate: number | undefined): BucketLimit | undefined =>
  rate === undefined ? undefined : { perSecond: rate / 60, size: Math.max(1, rate) };

/**
 * The app's own value of each field, else the `APP_*` default; the app's `null` lifts the default.
 * A bucket holds at least one token, or a rate below 1 (0.2 a second) could never be spent.
 */
export function appLimits(app: AppRecord, defaults: AppQuota): AppLimits {
  const pick = (field: keyof AppQuota): number | undefined => {
    const own = app.quota?.[field];
    return own === null ? undefined : (own ?? defaults[field] ?? undefined);
  };
  const rate = pick('requestsPerSecond');
  return {
    requests: rate === undefined ? undefined : { perSecond: rate, size: Math.max(1, pick('requestsBurst') ?? 2 * rate) },
    uploads: perMinute(pick('uploadsPerMinute')),
    uploadsInFlight: pick('uploadsInFlight'),
    storageBytes: pick('storageBytes'),
    pagesPerVideo: perMinute(pick('pagesPerVideoPerMinute')),
    uploadsPerVideo: perMinute(pick('uploadsPerVideoPerMinute')),
  };
}

/**
 * An unfinished upload counts as in flight while it receives bytes: until this long after its
 * last PATCH (or its creation). One idle longer is paused or given up, and holds no place: it
 * may resume later, counting again. The uploader sends PATCH after PATCH, retrying a failed one
 * within seconds, and the tus endpoint records a long PATCH's activity every minute.
 */
export const IN_FLIGHT_IDLE_MS = 5 * 60 * 1000;

/**
 * A request of an app whose bucket this instance already knows empty (it was refused before and
 * did not wait for Retry-After) is answered after a pause until the bucket could grant again, at
 * most this long. A client honouring Retry-After (at least 1 s) never meets it; 20 clients that
 * resend at once are slowed to one request each per pause instead of as many refusals as the
 * service can write, which would take the event loop from every other app (bench/quota.ts).
 */
const MAX_REFUSAL_PAUSE_MS = 1000;

/**
 * Per service, its leases of the shared buckets and the refusals it last gave. Keyed by the
 * service so that services in one process (tests) stay apart, as instances do.
 */
const perService = new WeakMap<ServiceContext, { leases: TokenLeases; refusals: Map<string, ServiceError> }>();

/**
 * The refusal for `field` with `Retry-After` `seconds`: made once and thrown again while the
 * wait in whole seconds is the same, since an app hammering past its quota gets the same answer
 * many times a second and each new error would capture a stack trace.
 */
function tooMany(refusals: Map<string, ServiceError>, key: string, over: string, retryAfterMs: number): ServiceError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const known = refusals.get(key);
  if (known?.retryAfterSeconds === retryAfterSeconds) return known;
  const error = new ServiceError('TOO_MANY_REQUESTS', `over ${over} quota; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
  // Per-video buckets make many keys; a refusal is kept only to be thrown again soon.
  if (refusals.size >= MAX_KEPT_REFUSALS) refusals.clear();
  refusals.set(key, error);
  return error;
}

/** Refusals kept to be thrown again; past this they are all dropped and made afresh. */
const MAX_KEPT_REFUSALS = 1000;

/**
 * The one budget function: spends a token of one of the app's buckets (or of one of its videos'),
 * or refuses with 116 and `Retry-After`. `over` names the quota in the refusal ("the app's
 * requestsPerSecond").
 */
async function spend(service: ServiceContext, appId: string, bucket: BucketName, limit: BucketLimit, over: string): Promise<void> {
  let mine = perService.get(service);
  if (!mine) perService.set(service, (mine = { leases: new TokenLeases(service.now), refusals: new Map() }));
  // The limit is part of the key: a quota changed by a reload of APPS_FILE starts a bucket of its own here.
  const key = `${appId}\n${bucket}\n${limit.perSecond}\n${limit.size}`;
  const outcome = await mine.leases.spend(key, limit, async (wanted) => {
    const now = service.now();
    return service.stores.quotaBuckets.settle(appId, bucket, freshBucket(limit, now), (state) => takeTokens(state, limit, now, wanted));
  });
  if (outcome.granted) return;
  // Slows an app that does not wait for Retry-After, so it cannot take the event loop from others.
  // The pause is the Retry-After it was told (whole seconds, at least 1), so resending early gains nothing.
  if (outcome.known)
    await new Promise((wake) =>
      setTimeout(wake, Math.min(Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)) * 1000, MAX_REFUSAL_PAUSE_MS)),
    );
  throw tooMany(mine.refusals, key, over, outcome.retryAfterMs);
}

/**
 * Counts one authenticated API or SOAP request against the app's `requestsPerSecond`, or refuses
 * it with 116 and `Retry-After`. Run after authentication, so that a caller without the app's
 * secret cannot spend the app's tokens.
 */
export async function chargeRequest(service: ServiceContext, app: AppRecord): Promise<void> {
  const limit = appLimits(app, service.config.quotaDefaults).requests;
  if (limit) await spend(service, app.appId, 'requests', limit, "the app's requestsPerSecond");
}

/**
 * Counts one upload-page load of the app's video `videoId` against that video's own
 * `pagesPerVideoPerMinute`, never the app's `requestsPerSecond`: the page's token is in the end
 * user's browser, and reloading it must not starve the app's backend or its other users. Run once
 * the video is known to be the app's, so that no row is kept for a video that does not exist.
 */
export async function chargePage(service: ServiceContext, app: AppRecord, videoId: string): Promise<void> {
  const limit = appLimits(app, service.config.quotaDefaults).pagesPerVideo;
  if (limit) await spend(service, app.appId, `video-pages:${videoId}`, limit, "the video's pagesPerVideoPerMinute");
}

/**
 * What the app stores or has reserved: its uploads (sources, and the declared length of those
 * under way, but `exceptVideoId`'s unfinished one, which a new upload replaces), the sources the
 * service downloaded for it, and its renditions.
 */
async function storedBytes(stores: Stores, appId: string, exceptVideoId: string): Promise<number> {
  return (await stores.uploads.bytesOfApp(appId, exceptVideoId)) + (await stores.videos.storedBytesOfApp(appId));
}

/**
 * How many bytes a source the service downloads for the app may take before its `storageBytes`
 * quota is full (0 when it is), or undefined without a quota. Measured when the download starts:
 * the download is cut, and fails, when its bytes pass this (download.ts, `storage-quota`).
 */
export async function downloadRoom(service: ServiceContext, appId: string): Promise<number | undefined> {
  const app = service.apps.get(appId);
  const limit = app && appLimits(app, service.config.quotaDefaults).storageBytes;
  if (limit === undefined) return undefined;
  return Math.max(0, limit - (await storedBytes(service.stores, appId, '')));
}

/** Refuses (507/113) a new video of an app whose `storageBytes` are all used. */
export async function checkStorageLeft(service: ServiceContext, app: AppRecord): Promise<void> {
  const limit = appLimits(app, service.config.quotaDefaults).storageBytes;
  if (limit === undefined) return;
  if ((await storedBytes(service.stores, app.appId, '')) >= limit)
    throw new ServiceError('NO_SPACE', `the app's storageBytes quota (${limit}) is used up`);
}

/**
 * Uploads in flight (116), then storage (507/113: what is stored and reserved plus this upload's
 * length may not pass the quota). An unfinished upload of the same video is left out of the
 * counts, as the new one replaces it.
 */
async function checkUploadRoom(service: ServiceContext, limits: AppLimits, appId: string, videoId: string, size: number): Promise<void> {
  const { stores } = service;
  if (limits.uploadsInFlight !== undefined) {
    const now = service.now();
    const { count, oldestActiveAt = now } = await stores.uploads.inFlight(appId, now - IN_FLIGHT_IDLE_MS, videoId);
    if (count >= limits.uploadsInFlight) {
      // When the least recently active upload stops counting unless it receives bytes first: the
      // soonest a place frees without an upload ending.
      const retryAfterSeconds = Math.max(1, Math.ceil((oldestActiveAt + IN_FLIGHT_IDLE_MS - now) / 1000));
      throw new ServiceError('TOO_MANY_REQUESTS', `over the app's uploadsInFlight quota (${limits.uploadsInFlight} at once)`, {
        retryAfterSeconds,
      });
    }
  }
  if (limits.storageBytes !== undefined) {
    const used = await storedBytes(stores, appId, videoId);
    if (used + size > limits.storageBytes)
      throw new ServiceError('NO_SPACE', `the app's storageBytes quota (${limits.storageBytes}) has no room for ${size} more bytes`);
  }
}

/**
 * Whether the app may create one more upload (of `size` declared bytes, for `videoId`), checked
 * before tus sees the creation, in the order that spends least: {@link checkUploadRoom}, then one
 * token of the video's own `uploadsPerVideoPerMinute`, then one of the app's `uploadsPerMinute`
 * (116), which only a creation about to happen spends. The video's budget comes first so that one
 * page's ticket, creating again and again, runs out of its own before it takes more of the app's.
 */
export async function admitUploadQuota(service: ServiceContext, appId: string, videoId: string, size: number): Promise<void> {
  const app = service.apps.get(appId);
  if (!app) return;
  const limits = appLimits(app, service.config.quotaDefaults);
  await checkUploadRoom(service, limits, appId, videoId, size);
  if (limits.uploadsPerVideo)
    await spend(service, appId, `video-uploads:${videoId}`, limits.uploadsPerVideo, "the video's uploadsPerVideoPerMinute");
  if (limits.uploads) await spend(service, appId, 'uploads', limits.uploads, "the app's uploadsPerMinute");
}

/**
 * {@link checkUploadRoom} again inside the transaction that records the upload (`ctx` is its
 * context), holding the app, so that creations at the same moment (on one instance or several)
 * cannot all pass a count made before any of them was recorded. The check before tus answers nearly every refusal (with
 * `Retry-After`); this one closes the race.
 */
export async function recheckUploadRoom(ctx: ServiceContext, appId: string, videoId: string, size: number): Promise<void> {
  const app = ctx.apps.get(appId);
  if (!app) return;
  const limits = appLimits(app, ctx.config.quotaDefaults);
  if (limits.uploadsInFlight === undefined && limits.storageBytes === undefined) return;
  await ctx.stores.quotaBuckets.holdApp(appId);
  await checkUploadRoom(ctx, limits, appId, videoId, size);
}

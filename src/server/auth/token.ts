import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Token = MD5(Timestamp + AppSecret), UTF-8, 32 lowercase hex characters (spec, Authentication). */
export function signToken(timestamp: string, appSecret: string): string {
  return createHash('md5')
    .update(timestamp + appSecret, 'utf8')
    .digest('hex');
}

const TOKEN_SHAPE = /^[0-9a-f]{32}$/;

/** Compares in constant time so the reply time tells nothing about how much of a token was right. */
export function tokenMatches(token: string, timestamp: string, appSecret: string): boolean {
  if (!TOKEN_SHAPE.test(token)) return false;
  const expected = Buffer.from(signToken(timestamp, appSecret), 'ascii');
  return timingSafeEqual(Buffer.from(token, 'ascii'), expected);
}

/**
 * The scoped widget token: lowercase hex HMAC-SHA256 keyed with the AppSecret over
 * `appId + "\n" + timestamp + "\n" + videoId`. 64 characters, so it is never mistaken for the
 * spec's 32-character md5 Token; it opens one video's upload page and nothing else.
 */
export function signScopedToken(appId: string, timestamp: string, videoId: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(`${appId}\n${timestamp}\n${videoId}`, 'utf8').digest('hex');
}

const SCOPED_SHAPE = /^[0-9a-f]{64}$/;

export function isScopedTokenShape(token: string): boolean {
  return SCOPED_SHAPE.test(token);
}

/** Constant time, as {@link tokenMatches}. */
export function scopedTokenMatches(token: string, appId: string, timestamp: string, videoId: string, appSecret: string): boolean {
  if (!SCOPED_SHAPE.test(token)) return false;
  return timingSafeEqual(Buffer.from(token, 'ascii'), Buffer.from(signScopedToken(appId, timestamp, videoId, appSecret), 'ascii'));
}

const TIMESTAMP_SHAPE = /^\d{1,12}$/;

export function isTimestampShape(timestamp: string): boolean {
  return TIMESTAMP_SHAPE.test(timestamp);
}

/** The spec allows 600 s either side of the server's clock. */
const TIMESTAMP_TOLERANCE_SECONDS = 600;

export function timestampInWindow(timestamp: string, nowMs: number): boolean {
  const seconds = Number(timestamp);
  return Math.abs(seconds - Math.floor(nowMs / 1000)) <= TIMESTAMP_TOLERANCE_SECONDS;
}

import { createHash, timingSafeEqual } from 'node:crypto';

/** Token = MD5(Timestamp + AppSecret), UTF-8, 32 lowercase hex characters (spec, Authentication). */
export function signToken(timestamp: string, appSecret: string): string {
  return createHash('md5').update(timestamp + appSecret, 'utf8').digest('hex');
}

const TOKEN_SHAPE = /^[0-9a-f]{32}$/;

/** Compares in constant time so the reply time tells nothing about how much of a token was right. */
export function tokenMatches(token: string, timestamp: string, appSecret: string): boolean {
  if (!TOKEN_SHAPE.test(token)) return false;
  const expected = Buffer.from(signToken(timestamp, appSecret), 'ascii');
  return timingSafeEqual(Buffer.from(token, 'ascii'), expected);
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

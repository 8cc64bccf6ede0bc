import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Token = MD5(Timestamp + AppSecret), UTF-8, 32 lowercase hex digits (spec, Authentication). */
export function signToken(timestamp: string, appSecret: string): string {
  return createHash('md5')
    .update(timestamp + appSecret, 'utf8')
    .digest('hex');
}

/**
 * The scoped widget token: lowercase hex HMAC-SHA256(AppSecret, appId + "\n" + timestamp + "\n" +
 * videoId), 64 characters. It opens that one video's upload page and is refused by the API, so
 * the browser that receives it can do nothing else with it.
 */
export function signScopedToken(appId: string, timestamp: string, videoId: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(`${appId}\n${timestamp}\n${videoId}`, 'utf8').digest('hex');
}

/** Whole seconds since 1970 UTC, as the decimal string the service and the widget expect. */
export function timestampNow(): string {
  return String(Math.floor(Date.now() / 1000));
}

/** The callback's `X-Signature`: `sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with the AppSecret>`. */
export function signBody(body: string | Uint8Array, appSecret: string): string {
  const hmac = createHmac('sha256', appSecret);
  return `sha256=${(typeof body === 'string' ? hmac.update(body, 'utf8') : hmac.update(body)).digest('hex')}`;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Compares in constant time, lengths included (both sides are hashed to one length first). */
export function sameText(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

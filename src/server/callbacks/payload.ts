import { createHmac } from 'node:crypto';
import type { AppRecord } from '../auth/apps';
import { signToken } from '../auth/token';

/** Carries `sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with the AppSecret>`. */
export const SIGNATURE_HEADER = 'X-Signature';

export function signBody(body: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}`;
}

export interface CallbackRequest {
  /** application/x-www-form-urlencoded: VideoId, VideoStatus, AppId, Timestamp, Token. */
  body: string;
  signature: string;
}

/**
 * The status callback, signed twice: `Token` the way apps sign their own calls (so an app can
 * reuse its check), and the body HMAC, which also covers `VideoId` and `VideoStatus`.
 * `Timestamp` is taken per attempt, so a retry hours later still passes a freshness check.
 */
export function callbackRequest(app: AppRecord, videoId: string, videoStatus: number, nowMs: number): CallbackRequest {
  const timestamp = String(Math.floor(nowMs / 1000));
  const body = new URLSearchParams({
    VideoId: videoId,
    VideoStatus: String(videoStatus),
    AppId: app.appId,
    Timestamp: timestamp,
    Token: signToken(timestamp, app.appSecret),
  }).toString();
  return { body, signature: signBody(body, app.appSecret) };
}

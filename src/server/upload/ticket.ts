import { createHmac, timingSafeEqual } from 'node:crypto';
import { acceptedSecrets, type AppRegistry } from '../auth/apps';
import { ServiceError } from '../errors';

/** What an upload ticket allows: one upload, to one video of one app, up to one size, until it expires. */
export interface TicketClaims {
  appId: string;
  videoId: string;
  /** Bytes; the upload page's limit for its uploadType. */
  maxFileSize: number;
  needHandleSpecial: boolean;
  /** Seconds since 1970. */
  expiresAt: number;
  /**
   * {@link secretTag} of the AppSecret that signed the page: the ticket passes only while the app
   * still accepts that secret, so removing the app or changing its secret revokes it.
   */
  signedWith: string;
}

/** Long enough for a multi-gigabyte upload, or a pause and resume, inside one page; a new page load gets a new ticket. */
export const TICKET_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * Tickets are `base64url(JSON claims) "." base64url(HMAC-SHA256)`; the version lives inside the
 * signed claims. Version 1 tickets carried no secret tag and could not be revoked: they are refused
 * (the page asks to reopen the widget, which resumes the upload).
 */
const VERSION = 2;

interface WireClaims {
  v: typeof VERSION;
  app: string;
  video: string;
  max: number;
  special: 0 | 1;
  exp: number;
  sec: string;
}

/**
 * Names a secret without revealing it: an HMAC keyed with the service's ticket key, so even a
 * weak AppSecret cannot be guessed from a ticket by anyone without that key.
 */
export function secretTag(key: Buffer, appSecret: string): string {
  return createHmac('sha256', key).update(`app-secret.${appSecret}`, 'utf8').digest().subarray(0, 16).toString('base64url');
}

function sign(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(`upload-ticket.${payload}`, 'utf8').digest();
}

export function issueTicket(key: Buffer, claims: TicketClaims): string {
  const wire: WireClaims = {
    v: VERSION,
    app: claims.appId,
    video: claims.videoId,
    max: claims.maxFileSize,
    special: claims.needHandleSpecial ? 1 : 0,
    exp: claims.expiresAt,
    sec: claims.signedWith,
  };
  const payload = Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
  return `${payload}.${sign(key, payload).toString('base64url')}`;
}

function isWireClaims(value: unknown): value is WireClaims {
  if (typeof value !== 'object' || value === null) return false;
  const wire = value as Record<string, unknown>;
  return (
    wire.v === VERSION &&
    typeof wire.app === 'string' &&
    typeof wire.video === 'string' &&
    Number.isSafeInteger(wire.max) &&
    (wire.special === 0 || wire.special === 1) &&
    Number.isSafeInteger(wire.exp) &&
    typeof wire.sec === 'string'
  );
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function sameTag(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')];
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The claims of a genuine, unexpired ticket of an app that is still registered and still accepts
 * the secret that signed the ticket's page (`apps` is the live set, so this holds from the next
 * request after `APPS_FILE` changes). The signature is checked (in constant time) before the
 * payload is parsed, so nothing an attacker wrote is interpreted.
 */
export function verifyTicket(key: Buffer, ticket: string | null | undefined, nowMs: number, apps: AppRegistry): TicketClaims {
  if (!ticket) throw new ServiceError('MISSING_PARAMETER', 'the Upload-Ticket header; reopen the upload widget');
  const [payload, signature, extra] = ticket.split('.');
  if (extra !== undefined || !payload || !signature || !BASE64URL.test(payload) || !BASE64URL.test(signature)) {
    throw new ServiceError('NO_PERMISSION', 'the upload ticket is malformed');
  }
  const given = Buffer.from(signature, 'base64url');
  const expected = sign(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ServiceError('NO_PERMISSION', 'the upload ticket is not genuine');
  }
  const wire: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (!isWireClaims(wire)) throw new ServiceError('NO_PERMISSION', 'the upload ticket is not genuine');
  if (wire.exp * 1000 <= nowMs) throw new ServiceError('TIMESTAMP_OUT_OF_RANGE', 'the upload ticket expired; reopen the upload widget');
  const app = apps.get(wire.app);
  if (!app) throw new ServiceError('UNKNOWN_APP', 'the app is no longer registered');
  if (!acceptedSecrets(app, nowMs).some((secret) => sameTag(secretTag(key, secret), wire.sec))) {
    throw new ServiceError('BAD_TOKEN', "the app's secret changed; reopen the upload widget");
  }
  return {
    appId: wire.app,
    videoId: wire.video,
    maxFileSize: wire.max,
    needHandleSpecial: wire.special === 1,
    expiresAt: wire.exp,
    signedWith: wire.sec,
  };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';

/** What an upload ticket allows: one upload, to one video of one app, up to one size, until it expires. */
export interface TicketClaims {
  appId: string;
  videoId: string;
  /** Bytes; the upload page's limit for its uploadType. */
  maxFileSize: number;
  needHandleSpecial: boolean;
  /** Seconds since 1970. */
  expiresAt: number;
}

/** Long enough for a multi-gigabyte upload, or a pause and resume, inside one page; a new page load gets a new ticket. */
export const TICKET_LIFETIME_SECONDS = 24 * 60 * 60;

/** Tickets are `base64url(JSON claims) "." base64url(HMAC-SHA256)`; the version lives inside the signed claims. */
const VERSION = 1;

interface WireClaims {
  v: typeof VERSION;
  app: string;
  video: string;
  max: number;
  special: 0 | 1;
  exp: number;
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
    Number.isSafeInteger(wire.exp)
  );
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The claims of a genuine, unexpired ticket. The signature is checked (in constant time) before
 * the payload is parsed, so nothing an attacker wrote is interpreted.
 */
export function verifyTicket(key: Buffer, ticket: string | null | undefined, nowMs: number): TicketClaims {
  if (!ticket) throw new ApiError('MISSING_PARAMETER', 'the Upload-Ticket header; reopen the upload widget');
  const [payload, signature, extra] = ticket.split('.');
  if (extra !== undefined || !payload || !signature || !BASE64URL.test(payload) || !BASE64URL.test(signature)) {
    throw new ApiError('NO_PERMISSION', 'the upload ticket is malformed');
  }
  const given = Buffer.from(signature, 'base64url');
  const expected = sign(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError('NO_PERMISSION', 'the upload ticket is not genuine');
  }
  const wire: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (!isWireClaims(wire)) throw new ApiError('NO_PERMISSION', 'the upload ticket is not genuine');
  if (wire.exp * 1000 <= nowMs) throw new ApiError('TIMESTAMP_OUT_OF_RANGE', 'the upload ticket expired; reopen the upload widget');
  return { appId: wire.app, videoId: wire.video, maxFileSize: wire.max, needHandleSpecial: wire.special === 1, expiresAt: wire.exp };
}

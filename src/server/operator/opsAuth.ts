import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const BEARER = /^Bearer +(\S+) *$/i;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * True when the request carries `Authorization: Bearer <OPS_TOKEN>`. Without an OPS_TOKEN no
 * request does. Both sides are hashed first, so the comparison takes the same time whatever the
 * length or the first differing character of a guess.
 */
export function carriesOpsToken(req: IncomingMessage, opsToken: string | undefined): boolean {
  if (!opsToken) return false;
  const match = BEARER.exec(req.headers.authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(opsToken));
}

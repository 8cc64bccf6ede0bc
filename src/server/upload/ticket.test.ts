import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isApiError } from '../errors';
import { issueTicket, verifyTicket, type TicketClaims } from './ticket';

const key = randomBytes(32);
const now = 1_750_000_000_000;
const claims: TicketClaims = { appId: 'app-a', videoId: 'v-1', maxFileSize: 1024, needHandleSpecial: true, expiresAt: now / 1000 + 60 };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (isApiError(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('upload ticket', () => {
  it('gives back exactly the claims it was issued with', () => {
    expect(verifyTicket(key, issueTicket(key, claims), now)).toEqual(claims);
  });

  it('is refused once a single character of its claims is changed', () => {
    const ticket = issueTicket(key, claims);
    const [payload, signature] = ticket.split('.') as [string, string];
    const json = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...json, video: 'v-2' })).toString('base64url');
    expect(codeOf(() => verifyTicket(key, `${forged}.${signature}`, now))).toBe('108');
  });

  it('is refused when signed with another key, malformed or missing', () => {
    expect(codeOf(() => verifyTicket(randomBytes(32), issueTicket(key, claims), now))).toBe('108');
    expect(codeOf(() => verifyTicket(key, 'abc', now))).toBe('108');
    expect(codeOf(() => verifyTicket(key, `${issueTicket(key, claims)}.x`, now))).toBe('108');
    expect(codeOf(() => verifyTicket(key, undefined, now))).toBe('101');
  });

  it('expires at its expiry second', () => {
    const ticket = issueTicket(key, claims);
    expect(codeOf(() => verifyTicket(key, ticket, claims.expiresAt * 1000 - 1))).toBeUndefined();
    expect(codeOf(() => verifyTicket(key, ticket, claims.expiresAt * 1000))).toBe('103');
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAppRegistry, type AppRecord } from '../auth/apps';
import { isServiceError } from '../errors';
import { issueTicket, secretTag, verifyTicket, type TicketClaims } from './ticket';

const key = randomBytes(32);
const now = 1_750_000_000_000;
const app: AppRecord = { appId: 'app-a', appSecret: 'secret-of-app-a-0123456789' };
const apps = createAppRegistry([app]);
const claims: TicketClaims = {
  appId: 'app-a',
  videoId: 'v-1',
  maxFileSize: 1024,
  needHandleSpecial: true,
  expiresAt: now / 1000 + 60,
  signedWith: secretTag(key, app.appSecret),
};

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (isServiceError(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('upload ticket', () => {
  it('gives back exactly the claims it was issued with', () => {
    expect(verifyTicket(key, issueTicket(key, claims), now, apps)).toEqual(claims);
  });

  it('is refused once a single character of its claims is changed', () => {
    const ticket = issueTicket(key, claims);
    const [payload, signature] = ticket.split('.') as [string, string];
    const json = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...json, video: 'v-2' })).toString('base64url');
    expect(codeOf(() => verifyTicket(key, `${forged}.${signature}`, now, apps))).toBe('108');
  });

  it('is refused when signed with another key, malformed or missing', () => {
    expect(codeOf(() => verifyTicket(randomBytes(32), issueTicket(key, claims), now, apps))).toBe('108');
    expect(codeOf(() => verifyTicket(key, 'abc', now, apps))).toBe('108');
    expect(codeOf(() => verifyTicket(key, `${issueTicket(key, claims)}.x`, now, apps))).toBe('108');
    expect(codeOf(() => verifyTicket(key, undefined, now, apps))).toBe('101');
  });

  it('expires at its expiry second', () => {
    const ticket = issueTicket(key, claims);
    expect(codeOf(() => verifyTicket(key, ticket, claims.expiresAt * 1000 - 1, apps))).toBeUndefined();
    expect(codeOf(() => verifyTicket(key, ticket, claims.expiresAt * 1000, apps))).toBe('103');
  });

  it('is revoked when its app is removed or its secret changes', () => {
    const ticket = issueTicket(key, claims);
    expect(codeOf(() => verifyTicket(key, ticket, now, createAppRegistry([])))).toBe('102');
    expect(codeOf(() => verifyTicket(key, ticket, now, createAppRegistry([{ ...app, appSecret: 'a-new-secret-0123456789' }])))).toBe('104');
  });

  it('signed with the previous secret, passes until previousSecretUntil and not after', () => {
    const rotated = createAppRegistry([
      { ...app, appSecret: 'a-new-secret-0123456789', previousSecret: app.appSecret, previousSecretUntil: now + 1000 },
    ]);
    const ticket = issueTicket(key, claims);
    expect(codeOf(() => verifyTicket(key, ticket, now + 999, rotated))).toBeUndefined();
    expect(codeOf(() => verifyTicket(key, ticket, now + 1000, rotated))).toBe('104');
  });

  it('carries a tag of the secret, never the secret or its plain hash', () => {
    const text = Buffer.from(issueTicket(key, claims).split('.')[0]!, 'base64url').toString();
    expect(text).not.toContain(app.appSecret);
    expect(secretTag(randomBytes(32), app.appSecret)).not.toBe(claims.signedWith);
  });
});

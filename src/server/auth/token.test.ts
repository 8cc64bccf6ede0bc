import { describe, expect, it } from 'vitest';
import { isTimestampShape, scopedTokenMatches, signScopedToken, signToken, timestampInWindow, tokenMatches } from './token';

// Digests computed outside the project with `printf '%s' "<Timestamp><AppSecret>" | md5sum`.
const VECTORS = [
  { timestamp: '1700000000', secret: 'secret-of-app-a-0123456789', token: '80e1846d79eb67a3b0a6176e80c7944d' },
  { timestamp: '1700000000', secret: '密钥🔑secret', token: '223f839b802e56f7630c9ec28472c3f2' },
  { timestamp: '1700000000', secret: '', token: '24920decf83f6960b80f737a28eeafc1' },
];

describe('signToken', () => {
  it.each(VECTORS)('MD5($timestamp + $secret) as UTF-8 is $token', ({ timestamp, secret, token }) => {
    expect(signToken(timestamp, secret)).toBe(token);
  });

  it('gives 32 lowercase hex characters', () => {
    expect(signToken('1', 'ABCDEF')).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('tokenMatches', () => {
  const { timestamp, secret, token } = VECTORS[0]!;

  it('accepts the right token', () => {
    expect(tokenMatches(token, timestamp, secret)).toBe(true);
  });

  it('refuses a token signed with another secret or another timestamp', () => {
    expect(tokenMatches(signToken(timestamp, 'another-secret-0123456789'), timestamp, secret)).toBe(false);
    expect(tokenMatches(token, '1700000001', secret)).toBe(false);
  });

  it('refuses a token differing in its last character only', () => {
    const last = token.endsWith('0') ? '1' : '0';
    expect(tokenMatches(token.slice(0, -1) + last, timestamp, secret)).toBe(false);
  });

  // The shape check runs before timingSafeEqual, which throws on buffers of different lengths.
  it.each([
    ['uppercase', token.toUpperCase()],
    ['31 characters', token.slice(0, 31)],
    ['33 characters', token + '0'],
    ['empty', ''],
    ['non-hex', 'g'.repeat(32)],
    ['32 non-ASCII characters', 'é'.repeat(32)],
    ['with spaces', ` ${token.slice(1)}`],
  ])('refuses a token of the wrong shape (%s) without throwing', (_name, candidate) => {
    expect(() => tokenMatches(candidate, timestamp, secret)).not.toThrow();
    expect(tokenMatches(candidate, timestamp, secret)).toBe(false);
  });
});

describe('scoped widget token', () => {
  // Computed outside the project: printf '%s' $'app-a\n1700000000\nv-1' | openssl dgst -sha256 -hmac '<secret>'
  const scoped = 'bde440e5103aec0d716b5458b3b799bdfd599bea9faa31127163cbec62b48cb6';
  const { timestamp, secret } = VECTORS[0]!;

  it('is the lowercase hex HMAC-SHA256 of appId, timestamp and videoId joined by newlines, keyed with the AppSecret', () => {
    expect(signScopedToken('app-a', timestamp, 'v-1', secret)).toBe(scoped);
  });

  it('matches only its own app, timestamp, video and secret', () => {
    expect(scopedTokenMatches(scoped, 'app-a', timestamp, 'v-1', secret)).toBe(true);
    expect(scopedTokenMatches(scoped, 'app-a', timestamp, 'v-2', secret)).toBe(false);
    expect(scopedTokenMatches(scoped, 'app-b', timestamp, 'v-1', secret)).toBe(false);
    expect(scopedTokenMatches(scoped, 'app-a', '1700000001', 'v-1', secret)).toBe(false);
    expect(scopedTokenMatches(scoped, 'app-a', timestamp, 'v-1', 'another-secret')).toBe(false);
  });

  it('is never taken for the md5 Token, nor the md5 Token for it', () => {
    expect(tokenMatches(scoped, timestamp, secret)).toBe(false);
    expect(scopedTokenMatches(signToken(timestamp, secret), 'app-a', timestamp, 'v-1', secret)).toBe(false);
    expect(() => scopedTokenMatches(scoped.toUpperCase(), 'app-a', timestamp, 'v-1', secret)).not.toThrow();
    expect(scopedTokenMatches(scoped.toUpperCase(), 'app-a', timestamp, 'v-1', secret)).toBe(false);
  });
});

describe('timestamp window', () => {
  const now = 1_700_000_000_000;
  const at = (offset: number) => String(1_700_000_000 + offset);

  it.each([0, 600, -600])('accepts %i s from server time', (offset) => {
    expect(timestampInWindow(at(offset), now)).toBe(true);
  });

  it.each([601, -601, 100_000])('refuses %i s from server time', (offset) => {
    expect(timestampInWindow(at(offset), now)).toBe(false);
  });

  it('compares with the server clock cut to whole seconds', () => {
    expect(timestampInWindow(at(-599), now + 999)).toBe(true);
    expect(timestampInWindow(at(-600), now + 999)).toBe(true);
    expect(timestampInWindow(at(-600), now + 1000)).toBe(false);
  });

  it.each(['1700000000', '0', '1'])('takes decimal digits: %s', (text) => {
    expect(isTimestampShape(text)).toBe(true);
  });

  it.each(['', '-1', '+1700000000', '1700000000.5', '1e9', '0x10', '17000 00000', '１７００', '1234567890123'])(
    'refuses anything else: %j',
    (text) => {
      expect(isTimestampShape(text)).toBe(false);
    },
  );
});

import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../config';
import { anyAddress, publicAddressesOnly } from '../net/addressPolicy';
import type { Resolver } from '../net/vettedHost';
import { callbackAddressPolicy, vetCallbackUrl } from './target';

/** Names mapped to addresses without DNS: the decision is tested, no request is sent. */
function resolver(map: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const addresses = map[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('CALLBACK_URL_ALLOW_PRIVATE', () => {
  it.each([
    ['http://localhost:8080', true],
    ['http://127.0.0.1:8080', true],
    ['http://192.168.1.20', true],
    ['http://10.0.0.5:9000', true],
    ['http://[::1]:8080', true],
    ['http://dev.localhost', true],
    ['https://video.example.com', false],
    ['https://8.8.8.8', false],
  ])('when unset, follows PUBLIC_URL %s: private callbacks allowed = %s', (url, allowed) => {
    expect(readConfig({ PUBLIC_URL: url }).callbackUrlAllowPrivate).toBe(allowed);
  });

  it('when set, decides alone', () => {
    expect(readConfig({ PUBLIC_URL: 'http://localhost:8080', CALLBACK_URL_ALLOW_PRIVATE: '0' }).callbackUrlAllowPrivate).toBe(false);
    expect(readConfig({ PUBLIC_URL: 'https://video.example.com', CALLBACK_URL_ALLOW_PRIVATE: '1' }).callbackUrlAllowPrivate).toBe(true);
    expect(() => readConfig({ CALLBACK_URL_ALLOW_PRIVATE: 'yes' })).toThrow(ConfigError);
  });

  it('picks the address policy', () => {
    expect(callbackAddressPolicy({ callbackUrlAllowPrivate: false })).toBe(publicAddressesOnly);
    expect(callbackAddressPolicy({ callbackUrlAllowPrivate: true })).toBe(anyAddress);
  });
});

describe('vetCallbackUrl', () => {
  const dns = resolver({
    'app.example.com': ['93.184.216.34'],
    'rebound.example.com': ['93.184.216.34', '10.0.0.7'],
    'meta.example.com': ['169.254.169.254'],
  });

  it('pins a public host to the addresses it was checked at', async () => {
    const target = await vetCallbackUrl('https://app.example.com/cb', publicAddressesOnly, dns);
    expect(target.ok).toBe(true);
    const pinned = await new Promise(
      (done) => target.ok && target.lookup('app.example.com', { family: 0 }, (_error, address) => done(address)),
    );
    expect(pinned).toBe('93.184.216.34');
  });

  it.each([
    ['https://rebound.example.com/cb', 'private'],
    ['http://meta.example.com/cb', 'cloud-metadata'],
    ['http://127.0.0.1:9/cb', 'loopback'],
    ['http://[::ffff:10.0.0.1]/cb', 'not-global-unicast'],
  ])('refuses %s for good (%s) under the public-only policy', async (url, kind) => {
    expect(await vetCallbackUrl(url, publicAddressesOnly, dns)).toEqual({
      ok: false,
      retry: false,
      error: `the callbackUrl resolves to a ${kind} address; CALLBACK_URL_ALLOW_PRIVATE=1 allows it`,
    });
  });

  it('lets private addresses through when allowed, and retries a host that does not resolve', async () => {
    expect((await vetCallbackUrl('https://rebound.example.com/cb', anyAddress, dns)).ok).toBe(true);
    expect(await vetCallbackUrl('https://nowhere.example.com/cb', publicAddressesOnly, dns)).toEqual({
      ok: false,
      retry: true,
      error: 'unresolvable',
    });
  });
});

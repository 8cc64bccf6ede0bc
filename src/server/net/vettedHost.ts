import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from './addressPolicy';

/** Every address a hostname resolves to; an interface so tests can map names without real DNS. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export type VettedHost =
  { ok: true; addresses: LookupAddress[] } | { ok: false; refused: 'unresolvable' } | { ok: false; refused: 'address'; address: string };

/** `URL.hostname` keeps an IPv6 literal's brackets; sockets and address checks want it bare. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves `hostname` and checks every address it yields: one refused address refuses the
 * host, since the connection could otherwise land on any of them.
 */
export async function vetHost(hostname: string, resolve: Resolver, allowed: AddressPolicy): Promise<VettedHost> {
  const family = isIP(hostname);
  let addresses: LookupAddress[];
  if (family !== 0) {
    addresses = [{ address: hostname, family }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch {
      return { ok: false, refused: 'unresolvable' };
    }
    if (addresses.length === 0) return { ok: false, refused: 'unresolvable' };
  }
  const bad = addresses.find(({ address }) => !allowed(address));
  return bad ? { ok: false, refused: 'address', address: bad.address } : { ok: true, addresses };
}

/**
 * A `lookup` for http.request that answers only with addresses already vetted, so the socket
 * connects to what was checked: a second DNS answer (rebinding) is never asked for. The Host
 * header and TLS SNI still carry the hostname, as they are taken from the URL, not from here.
 */
export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
    const first = wanted[0];
    if (!first) {
      callback(Object.assign(new Error('no vetted address of the requested family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) callback(null, wanted);
    else callback(null, first.address, first.family);
  };
}

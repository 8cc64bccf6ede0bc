import type { LookupFunction } from 'node:net';
import type { ServiceConfig } from '../config';
import { anyAddress, blockedAddressKind, publicAddressesOnly, type AddressPolicy } from '../net/addressPolicy';
import { bareHostname, pinnedLookup, vetHost, type Resolver } from '../net/vettedHost';

/** Which addresses a status callback may be sent to (see `callbackUrlAllowPrivate`). */
export function callbackAddressPolicy(config: Pick<ServiceConfig, 'callbackUrlAllowPrivate'>): AddressPolicy {
  return config.callbackUrlAllowPrivate ? anyAddress : publicAddressesOnly;
}

export type CallbackTarget =
  | { ok: true; lookup: LookupFunction }
  /** Worth another try later: DNS may answer then. */
  | { ok: false; retry: true; error: string }
  /** Final: the address is refused by the policy; retrying would only knock again. */
  | { ok: false; retry: false; error: string };

/**
 * Resolves the callback URL's host and checks every address against `policy`; the answer pins
 * the request to the checked addresses (no second DNS answer, no rebinding).
 */
export async function vetCallbackUrl(url: string, policy: AddressPolicy, resolve: Resolver): Promise<CallbackTarget> {
  const vetted = await vetHost(bareHostname(new URL(url)), resolve, policy);
  if (vetted.ok) return { ok: true, lookup: pinnedLookup(vetted.addresses) };
  if (vetted.refused === 'unresolvable') return { ok: false, retry: true, error: 'unresolvable' };
  return {
    ok: false,
    retry: false,
    error: `the callbackUrl resolves to a ${blockedAddressKind(vetted.address) ?? 'refused'} address; CALLBACK_URL_ALLOW_PRIVATE=1 allows it`,
  };
}

import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses a server-side download may connect to. A source URL is supplied by an app,
 * so without this check it could make the service fetch from its own network (SSRF).
 *
 * IPv4 is checked against IANA's special-purpose ranges. IPv6 is the other way round: only
 * global unicast (2000::/3) can pass, which alone rules out loopback, unspecified, IPv4-mapped
 * (::ffff:0:0/96), NAT64 (64:ff9b::/96), unique-local (fc00::/7, holding AWS's fd00:ec2::254),
 * link-local and multicast; inside 2000::/3 the special blocks are refused, and 6to4's embedded
 * IPv4 address must itself be public.
 */

/** Why an address is refused, for logs; `undefined` means public. */
export type BlockedAddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'cloud-metadata'
  | 'reserved'
  | 'multicast'
  | 'not-global-unicast'
  | 'invalid';

type V4Range = readonly [first: number, prefix: number, kind: BlockedAddressKind];

const ipv4 = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

// Metadata addresses come first so logs name them; 169.254.169.254 (AWS, GCP, Azure IMDS) and
// 100.100.100.200 (Alibaba) also sit inside link-local and shared space. Azure's WireServer
// 168.63.129.16 is a public address reachable only from inside Azure, so it is listed by name.
const V4_BLOCKED: readonly V4Range[] = [
  [ipv4(169, 254, 169, 254), 32, 'cloud-metadata'],
  [ipv4(100, 100, 100, 200), 32, 'cloud-metadata'],
  [ipv4(168, 63, 129, 16), 32, 'cloud-metadata'],
  [ipv4(0, 0, 0, 0), 8, 'unspecified'],
  [ipv4(10, 0, 0, 0), 8, 'private'],
  [ipv4(100, 64, 0, 0), 10, 'shared'],
  [ipv4(127, 0, 0, 0), 8, 'loopback'],
  [ipv4(169, 254, 0, 0), 16, 'link-local'],
  [ipv4(172, 16, 0, 0), 12, 'private'],
  [ipv4(192, 0, 0, 0), 24, 'reserved'],
  [ipv4(192, 0, 2, 0), 24, 'reserved'],
  [ipv4(192, 88, 99, 0), 24, 'reserved'],
  [ipv4(192, 168, 0, 0), 16, 'private'],
  [ipv4(198, 18, 0, 0), 15, 'reserved'],
  [ipv4(198, 51, 100, 0), 24, 'reserved'],
  [ipv4(203, 0, 113, 0), 24, 'reserved'],
  [ipv4(224, 0, 0, 0), 4, 'multicast'],
  [ipv4(240, 0, 0, 0), 4, 'reserved'],
];

function classifyIPv4(value: number): BlockedAddressKind | undefined {
  for (const [first, prefix, kind] of V4_BLOCKED) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === first) return kind;
  }
  return undefined;
}

function parseIPv4(text: string): number {
  const [a, b, c, d] = text.split('.').map(Number) as [number, number, number, number];
  return ipv4(a, b, c, d);
}

/** Eight 16-bit groups; `text` must already satisfy `isIPv6` (a zone index is not allowed). */
function parseIPv6(text: string): number[] {
  let body = text;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const value = parseIPv4(dotted[1]!);
    tail.push(value >>> 16, value & 0xffff);
    body = body.slice(0, -dotted[1]!.length);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head, rest] = body.split('::') as [string, string | undefined];
  const front = groups(head);
  if (rest === undefined) return [...front, ...tail];
  const back = [...groups(rest), ...tail];
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function classifyIPv6(groups: readonly number[]): BlockedAddressKind | undefined {
  const [g0 = 0, g1 = 0, g2 = 0] = groups;
  if (groups.every((group) => group === 0)) return 'unspecified';
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return 'loopback';
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if ((g0 & 0xe000) !== 0x2000) return 'not-global-unicast';
  // 2001::/23 holds Teredo (which hides an IPv4 peer) and other protocol blocks; 2001:db8::/32 is documentation.
  if (g0 === 0x2001 && g1 < 0x0200) return 'reserved';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'reserved';
  if (g0 === 0x2002) return classifyIPv4(((g1 << 16) | g2) >>> 0);
  return undefined;
}

/** The reason `address` (an IP literal, no brackets) may not be contacted, or `undefined` when it is public. */
export function blockedAddressKind(address: string): BlockedAddressKind | undefined {
  if (isIPv4(address)) return classifyIPv4(parseIPv4(address));
  if (isIPv6(address) && !address.includes('%')) return classifyIPv6(parseIPv6(address));
  return 'invalid';
}

/** Decides per resolved address whether a download may connect to it. */
export type AddressPolicy = (address: string) => boolean;

export const publicAddressesOnly: AddressPolicy = (address) => blockedAddressKind(address) === undefined;

export const anyAddress: AddressPolicy = () => true;

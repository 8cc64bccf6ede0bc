import { describe, expect, it } from 'vitest';
import { blockedAddressKind, publicAddressesOnly } from './addressPolicy';

describe('blockedAddressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['168.63.129.16', 'cloud-metadata'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fd00:ec2::254', 'private'],
    ['fc00::1', 'private'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'not-global-unicast'],
    ['::ffff:8.8.8.8', 'not-global-unicast'],
    ['::ffff:7f00:1', 'not-global-unicast'],
    ['::127.0.0.1', 'not-global-unicast'],
    ['64:ff9b::a00:1', 'not-global-unicast'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'cloud-metadata'],
    ['not-an-ip', 'invalid'],
    ['fe80::1%eth0', 'invalid'],
  ])('refuses %s as %s', (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
    expect(publicAddressesOnly(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2002:808:808::1'])(
    'lets the public address %s pass',
    (address) => {
      expect(blockedAddressKind(address)).toBeUndefined();
      expect(publicAddressesOnly(address)).toBe(true);
    },
  );
});

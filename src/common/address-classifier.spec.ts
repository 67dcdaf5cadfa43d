import { isNonPublicAddress } from './address-classifier';

describe(isNonPublicAddress.name, () => {
  it.each([
    ['127.0.0.1', 'IPv4 loopback'],
    ['127.255.255.254', 'IPv4 loopback, anywhere in 127/8'],
    ['0.0.0.0', 'the unspecified address'],
    ['10.1.2.3', 'RFC 1918 10/8'],
    ['172.16.0.1', 'RFC 1918 172.16/12, first'],
    ['172.31.255.255', 'RFC 1918 172.16/12, last'],
    ['192.168.1.1', 'RFC 1918 192.168/16'],
    ['100.64.0.1', 'carrier-grade NAT 100.64/10'],
    ['100.127.255.255', 'carrier-grade NAT, last'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'IPv6 loopback in URL brackets'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local fe80::/10'],
    ['febf::1', 'IPv6 link-local, last block'],
    ['fc00::1', 'IPv6 unique local fc00::/7'],
    ['fd12:3456:789a::1', 'IPv6 unique local fd00::/8'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['0:0:0:0:0:ffff:c0a8:101', 'IPv4-mapped private, long form'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['localhost', 'a name (names are resolved first)'],
  ])('%s is not public (%s)', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['172.32.0.1'],
    ['172.15.255.255'],
    ['100.128.0.1'],
    ['100.63.255.255'],
    ['192.169.0.1'],
    ['169.255.0.1'],
    ['2001:4860:4860::8888'],
    ['2606:4700:4700::1111'],
    ['::ffff:8.8.8.8'],
    ['fec0::1'],
  ])('%s is public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

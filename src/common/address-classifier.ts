import { BlockList, isIP } from 'node:net';

/**
 * The address ranges a webhook may not reach in production (SSRF): the host's own loopback, the
 * networks behind it and cloud metadata services. IPv4 and IPv6, with IPv4-mapped IPv6 addresses
 * judged as the IPv4 address they carry.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the host itself
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: carries an IPv4 address that may be private
  ['fc00::', 7], // unique local (ULA)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** `::ffff:10.0.0.1` or `::ffff:a00:1` → `10.0.0.1`; undefined for any other address. */
function mappedIpv4(address: string): string | undefined {
  const match = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(address);
  if (!match) return undefined;
  const rest = match[1];
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return undefined;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * Whether `address` (an IP literal, IPv6 with or without brackets) is loopback, link-local,
 * private or otherwise not a public Internet address. Anything that is not an IP address counts
 * as not public: the caller resolves names first.
 */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const ipv4 = isIP(bare) === 4 ? bare : isIP(bare) === 6 ? mappedIpv4(bare) : undefined;
  if (ipv4 !== undefined) return NOT_PUBLIC.check(ipv4, 'ipv4');
  if (isIP(bare) === 6) return NOT_PUBLIC.check(bare, 'ipv6');
  return true;
}

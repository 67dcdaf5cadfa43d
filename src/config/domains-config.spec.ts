import { parseConfig } from './app-config';

describe(`${parseConfig.name}: verified domains`, () => {
  it('defaults', () => {
    expect(parseConfig({}).domains).toEqual({
      perOrg: 10,
      denylist: [],
      allowlist: [],
      verificationTtlSeconds: 604_800,
      recheckSeconds: 86_400,
      graceSeconds: 604_800,
      resolverServers: [],
      dnsTimeoutMs: 5_000,
    });
  });

  it.each(['127.0.0.1:5353', '127.0.0.1', '[::1]:53', '::1'])('DNS_RESOLVER_SERVERS takes %s', (server) => {
    expect(parseConfig({ DNS_RESOLVER_SERVERS: server }).domains.resolverServers).toEqual([server]);
  });

  it.each(['127.0.0.1:0', 'dns.local:53', '127.0.0.1:99999', 'not an address'])(
    'DNS_RESOLVER_SERVERS refuses %s, naming the variable',
    (server) => {
      expect(() => parseConfig({ DNS_RESOLVER_SERVERS: server })).toThrow(/DNS_RESOLVER_SERVERS/);
    },
  );

  it('DOMAINS_PER_ORG and DNS_TIMEOUT_MS are bounded', () => {
    expect(() => parseConfig({ DOMAINS_PER_ORG: '0' })).toThrow(/DOMAINS_PER_ORG/);
    expect(() => parseConfig({ DNS_TIMEOUT_MS: 'soon' })).toThrow(/DNS_TIMEOUT_MS/);
  });
});

import { parseConfig } from '../config/app-config';
import { emailDomain, normaliseDomain, ProviderList } from './domain-name';

describe(normaliseDomain.name, () => {
  it.each([
    ['  Acme.COM. ', 'acme.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['a-b.example', 'a-b.example'],
  ])('%j is %j', (raw, name) => expect(normaliseDomain(raw)).toBe(name));

  it.each([
    ['an IPv4 address', '10.0.0.1'],
    ['an IPv6 address', '2001:db8::1'],
    ['a wildcard', '*.acme.com'],
    ['an address', 'a@acme.com'],
    ['a single label', 'acme'],
    ['a label over 63', `${'a'.repeat(64)}.com`],
    ['a name over 253', `${'a'.repeat(63)}.`.repeat(4) + 'com'],
    ['a leading hyphen', '-acme.com'],
    ['an empty label', 'acme..com'],
    ['not a string', 7],
  ])('refuses %s', (_, raw) => expect(normaliseDomain(raw)).toBeNull());
});

describe(emailDomain.name, () => {
  it('is the normalised part after the last @; null without one', () => {
    expect(emailDomain('Kate@Acme.COM')).toBe('acme.com');
    expect(emailDomain('nobody')).toBeNull();
    expect(emailDomain(null)).toBeNull();
  });
});

describe(ProviderList.name, () => {
  const list = new ProviderList(
    parseConfig({ DOMAIN_DENYLIST: 'Denied.example', DOMAIN_ALLOWLIST: 'gmail.com' }).domains,
  );

  it.each([
    ['co.uk', 'DOMAIN_PUBLIC_SUFFIX'],
    ['github.io', 'DOMAIN_PUBLIC_SUFFIX'],
    ['com', 'DOMAIN_PUBLIC_SUFFIX'],
    ['yahoo.com', 'DOMAIN_FREE_PROVIDER'],
    ['mailinator.com', 'DOMAIN_FREE_PROVIDER'],
    ['mail.yahoo.com', 'DOMAIN_FREE_PROVIDER'],
    ['denied.example', 'DOMAIN_FREE_PROVIDER'],
    ['gmail.com', null],
    ['acme.com', null],
    ['acme.test', null],
    ['acme.example', null],
    ['acme.invalid', null],
    ['myapp.github.io', null],
  ])('%s: %s', (name, refusal) => expect(list.refusal(name)).toBe(refusal));
});

import { requestOrigin } from './request-origin';

describe(requestOrigin.name, () => {
  it('spec 4.9 rule 10: defaults to https://localhost:3000 without headers', () => {
    expect(requestOrigin({})).toBe('https://localhost:3000');
  });

  it.each([
    ['http', 'http'],
    ['https', 'https'],
    ['HTTP', 'http'],
    [' Https ', 'https'],
    ['http, https', 'http'],
    ['https,http', 'https'],
    ['ftp', 'https'],
    ['javascript', 'https'],
    ['', 'https'],
  ])(
    'takes the protocol from x-forwarded-proto %p as %s (first value, lower-cased, http or https only)',
    (header, protocol) => {
      expect(requestOrigin({ host: 'app.example.com', 'x-forwarded-proto': header })).toBe(
        `${protocol}://app.example.com`,
      );
    },
  );

  it('reads the first x-forwarded-proto when Node hands over several', () => {
    expect(requestOrigin({ host: 'a.example', 'x-forwarded-proto': ['http', 'https'] as unknown as string })).toBe(
      'http://a.example',
    );
  });

  it.each([
    'app.example.com',
    'app.example.com:8443',
    'localhost',
    'localhost:3000',
    '10.0.0.5:80',
    'xn--bcher-kva.example',
    'APP.Example.com',
  ])('keeps the plain host %s', (host) => {
    expect(requestOrigin({ host })).toBe(`https://${host}`);
  });

  it.each([
    ['empty', ''],
    ['with a path', 'evil.example/phish'],
    ['with user info', 'user@evil.example'],
    ['with a query', 'evil.example?x=1'],
    ['with a fragment', 'evil.example#x'],
    ['with spaces', 'evil example'],
    ['with markup', '"><script>alert(1)</script>'],
    ['an IPv6 literal', '[::1]:3000'],
    ['with a port over 65535', 'app.example.com:70000'],
    ['with an empty port', 'app.example.com:'],
    ['with two ports', 'app.example.com:80:81'],
    ['unicode', 'bücher.example'],
    ['a label starting with a hyphen', '-evil.example'],
    ['over-long', `${'a'.repeat(63)}.`.repeat(5) + 'com'],
  ])('treats a host header %s as absent', (_, host) => {
    expect(requestOrigin({ host })).toBe('https://localhost:3000');
  });
});

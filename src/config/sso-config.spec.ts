import { parseConfig } from './app-config';
import { DEVELOPMENT_SSO_SECRETS_KEY } from './sso-config';

describe(`${parseConfig.name}: single sign-on (docs/sso.md)`, () => {
  const key = Buffer.alloc(32, 7);

  it('defaults: 3 connections, 5 s, 120 s of skew, no return origins; private addresses and http allowed outside production', () => {
    expect(parseConfig({}).sso).toEqual({
      secretsKey: DEVELOPMENT_SSO_SECRETS_KEY,
      secretsKeys: [DEVELOPMENT_SSO_SECRETS_KEY],
      usingDevelopmentSecretsKey: true,
      connectionsPerOrg: 3,
      refusePrivateAddresses: false,
      httpsOnly: false,
      httpTimeoutMs: 5_000,
      clockSkewSeconds: 120,
      returnOrigins: [],
      defaultReturnTo: null,
      discoverRateLimit: 60,
    });
  });

  it('SSO_SECRETS_KEY: 32 bytes in hex or base64; anything else stops start-up naming it', () => {
    expect(parseConfig({ SSO_SECRETS_KEY: key.toString('hex') }).sso.secretsKey).toEqual(key);
    expect(parseConfig({ SSO_SECRETS_KEY: key.toString('base64') }).sso.secretsKey).toEqual(key);
    for (const malformed of ['short', 'a'.repeat(63), Buffer.alloc(31).toString('base64'), 'z'.repeat(64)])
      expect(() => parseConfig({ SSO_SECRETS_KEY: malformed })).toThrow(/^Invalid configuration: SSO_SECRETS_KEY /);
  });

  it('SSO_SECRETS_KEY new,old: written with the first, read with any; a bad key stops start-up naming its place', () => {
    const old = Buffer.alloc(32, 9);
    expect(parseConfig({ SSO_SECRETS_KEY: `${key.toString('hex')}, ${old.toString('base64')}` }).sso).toMatchObject({
      secretsKey: key,
      secretsKeys: [key, old],
    });
    expect(() => parseConfig({ SSO_SECRETS_KEY: `${key.toString('hex')},short` })).toThrow(
      /^Invalid configuration: SSO_SECRETS_KEY key 2 of 2: must be 32 bytes/,
    );
  });

  it('SSO_DEFAULT_RETURN_TO: a path, or an address on an origin of SSO_RETURN_ORIGINS; anything else stops start-up', () => {
    expect(parseConfig({ SSO_DEFAULT_RETURN_TO: '/dashboard' }).sso.defaultReturnTo).toBe('/dashboard');
    const portal = { SSO_RETURN_ORIGINS: 'https://portal.example.com' };
    expect(
      parseConfig({ ...portal, SSO_DEFAULT_RETURN_TO: 'https://portal.example.com/home' }).sso.defaultReturnTo,
    ).toBe('https://portal.example.com/home');
    for (const bad of ['//evil.example', 'https://evil.example/', 'dashboard', 'javascript:alert(1)'])
      expect(() => parseConfig({ ...portal, SSO_DEFAULT_RETURN_TO: bad })).toThrow(
        /^Invalid configuration: SSO_DEFAULT_RETURN_TO must be a path/,
      );
  });

  it('production without SSO_SECRETS_KEY starts with single sign-on off; with it, https and public addresses only', () => {
    const production = { NODE_ENV: 'production', AUTH_JWT_SECRET: 'k'.repeat(32) };
    expect(parseConfig(production).sso).toMatchObject({ secretsKey: null, usingDevelopmentSecretsKey: false });
    expect(parseConfig({ ...production, SSO_SECRETS_KEY: key.toString('hex') }).sso).toMatchObject({
      secretsKey: key,
      refusePrivateAddresses: true,
      httpsOnly: true,
    });
    expect(parseConfig({ ...production, SSO_ALLOW_PRIVATE: 'true' }).sso.refusePrivateAddresses).toBe(false);
  });

  it('SSO_RETURN_ORIGINS lists origins; a path, a query or another scheme is refused', () => {
    expect(
      parseConfig({ SSO_RETURN_ORIGINS: 'https://portal.example.com, http://localhost:5173' }).sso.returnOrigins,
    ).toEqual(['https://portal.example.com', 'http://localhost:5173']);
    for (const bad of ['https://portal.example.com/app', 'javascript:alert(1)', 'https://x.test/?a=1'])
      expect(() => parseConfig({ SSO_RETURN_ORIGINS: bad })).toThrow(/SSO_RETURN_ORIGINS/);
  });

  it.each([
    ['SSO_CONNECTIONS_PER_ORG', '0'],
    ['SSO_HTTP_TIMEOUT_MS', 'soon'],
    ['SSO_CLOCK_SKEW_SECONDS', '601'],
    ['SSO_ALLOW_PRIVATE', 'perhaps'],
    ['SSO_DISCOVER_RATE_LIMIT', '0'],
  ])('stops on a malformed %s', (variable, value) => {
    expect(() => parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'k'.repeat(32), [variable]: value })).toThrow(
      new RegExp(`^Invalid configuration: ${variable} `),
    );
  });
});

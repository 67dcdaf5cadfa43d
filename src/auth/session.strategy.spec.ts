import { createHmac, generateKeyPairSync, KeyObject } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { sign, SignOptions } from 'jsonwebtoken';
import { AppConfig, parseConfig } from '../config/app-config';
import { Caller } from './caller';
import { parseCookieHeader } from './session-token';
import { CLOCK_SKEW_SECONDS, SessionStrategy } from './session.strategy';

const POOL = 'us-east-1_UnitPool';
const CLIENT = 'unit-client';

/**
 * One strategy (and so one key cache) per configuration, as the app has; each call runs it on a
 * request that carries `token` in the session cookie: the caller, or false for "no session".
 */
function verifier(config: AppConfig): (token: string) => Promise<Caller | false> {
  const strategy = new SessionStrategy(config);
  return (token) =>
    new Promise((resolve) => {
      const run = Object.create(strategy);
      run.success = (caller: Caller) => resolve(caller);
      run.fail = () => resolve(false);
      run.error = () => resolve(false);
      run.authenticate({ headers: { cookie: `${config.sessionCookieName}=${token}` } });
    });
}

const keyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = (publicKey: KeyObject, kid: string) => ({
  ...publicKey.export({ format: 'jwk' }),
  kid,
  alg: 'RS256',
  use: 'sig',
});
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe(`${SessionStrategy.name} in cognito mode (RS256 against the pool's JWKS)`, () => {
  const keyA = keyPair();
  const keyB = keyPair();
  let served: object[];
  let jwksRequests: number;
  let server: Server;
  let config: AppConfig;
  let issuer: string;
  let verify: (token: string) => Promise<Caller | false>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== `/${POOL}/.well-known/jwks.json`) {
        res.writeHead(404).end();
        return;
      }
      jwksRequests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    issuer = `${endpoint}/${POOL}`;
    config = parseConfig({
      IDENTITY_STORE: 'cognito',
      COGNITO_USER_POOL_ID: POOL,
      COGNITO_CLIENT_ID: CLIENT,
      AWS_REGION: 'us-east-1',
      COGNITO_ENDPOINT: endpoint,
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    served = [jwk(keyA.publicKey, 'key-a')];
    jwksRequests = 0;
    verify = verifier(config);
  });

  const claims = (extra: object = {}) => ({
    sub: '1b2c-sub',
    'cognito:username': 'alice',
    email: 'alice@example.com',
    token_use: 'id',
    'custom:user_type': 'org',
    'custom:tenant_id': 't-1',
    'custom:role': 'owner',
    ...extra,
  });
  /** A token as the pool signs it; `options` override the defaults, an undefined option leaves the claim out. */
  const idToken = (extra: object = {}, options: SignOptions = {}, key = keyA.privateKey, kid = 'key-a') => {
    const merged: SignOptions = {
      algorithm: 'RS256',
      keyid: kid,
      issuer,
      audience: CLIENT,
      expiresIn: 300,
      ...options,
    };
    const defined = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
    return sign(claims(extra), key, defined);
  };

  it('accepts a pool id token: the caller comes from its claims, cognito:username over sub', async () => {
    expect(await verify(idToken())).toEqual({
      id: 'alice',
      email: 'alice@example.com',
      userType: 'org',
      tenantId: 't-1',
      role: 'owner',
      issuedAt: expect.any(Number),
    });
  });

  it.each([
    ['expired', () => idToken({ exp: Math.floor(Date.now() / 1000) - 5 }, { expiresIn: undefined })],
    ['for another app client (aud)', () => idToken({}, { audience: 'other-client' })],
    ['without aud', () => idToken({}, { audience: undefined })],
    ['from another issuer', () => idToken({}, { issuer: `https://cognito-idp.us-east-1.amazonaws.com/${POOL}` })],
    ['an access token (token_use: access)', () => idToken({ token_use: 'access' })],
    ['without token_use', () => idToken({ token_use: undefined })],
    ['signed by another key under the known kid', () => idToken({}, {}, keyB.privateKey, 'key-a')],
    ['signed RS512 (algorithm pinned to RS256)', () => idToken({}, { algorithm: 'RS512' })],
    [
      'HS256 keyed with the public key (algorithm confusion)',
      () => {
        const header = base64url({ alg: 'HS256', typ: 'JWT', kid: 'key-a' });
        const payload = base64url({ ...claims(), iss: issuer, aud: CLIENT, exp: Math.floor(Date.now() / 1000) + 300 });
        const pem = keyA.publicKey.export({ format: 'pem', type: 'spki' });
        const signature = createHmac('sha256', pem).update(`${header}.${payload}`).digest('base64url');
        return `${header}.${payload}.${signature}`;
      },
    ],
    [
      'HS256 with the local-mode secret',
      () => sign(claims(), config.authJwtSecret, { algorithm: 'HS256', expiresIn: 300 }),
    ],
    [
      'alg: none',
      () => `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims(), iss: issuer, aud: CLIENT })}.`,
    ],
    [
      'tampered after signing',
      () => {
        const [header, , signature] = idToken().split('.');
        return `${header}.${base64url({ ...claims({ 'custom:tenant_id': 't-2' }), iss: issuer, aud: CLIENT })}.${signature}`;
      },
    ],
    ['garbage', () => 'not.a.jwt'],
  ])('a token that is %s is no session', async (_, token) => {
    expect(await verify(token())).toBe(false);
  });

  it('caches the keys: many tokens with a known kid fetch the JWKS once', async () => {
    for (let i = 0; i < 3; i++) expect(await verify(idToken())).not.toBe(false);
    expect(jwksRequests).toBe(1);
  });

  it('fetches the JWKS again for an unknown kid: a rotated-in key works without a restart', async () => {
    expect(await verify(idToken())).not.toBe(false);
    expect(await verify(idToken({}, {}, keyB.privateKey, 'key-b'))).toBe(false);
    served = [jwk(keyA.publicKey, 'key-a'), jwk(keyB.publicKey, 'key-b')];
    expect(await verify(idToken({}, {}, keyB.privateKey, 'key-b'))).toMatchObject({ id: 'alice' });
  });

  it('an unreachable JWKS is no session, not a failure of the request', async () => {
    const offline = parseConfig({
      IDENTITY_STORE: 'cognito',
      COGNITO_USER_POOL_ID: POOL,
      COGNITO_CLIENT_ID: CLIENT,
      AWS_REGION: 'us-east-1',
      COGNITO_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(await verifier(offline)(idToken())).toBe(false);
  });
});

describe(`${SessionStrategy.name} in local mode (HS256)`, () => {
  const config = parseConfig({ AUTH_JWT_SECRET: 'unit-test-secret-unit-test-secret-unit' });
  const verify = verifier(config);
  const claims = { sub: 'u-1', email: 'u@example.com', token_use: 'id' };

  it('accepts an HS256 id token signed with AUTH_JWT_SECRET', async () => {
    expect(await verify(sign(claims, config.authJwtSecret, { algorithm: 'HS256', expiresIn: 60 }))).toMatchObject({
      id: 'u-1',
    });
  });

  it('refuses an RS256 token, whoever signed it', async () => {
    const { privateKey } = keyPair();
    expect(await verify(sign(claims, privateKey, { algorithm: 'RS256', expiresIn: 60 }))).toBe(false);
  });
});

describe(`${SessionStrategy.name}: exp, iat and the payload's shape`, () => {
  const config = parseConfig({ AUTH_JWT_SECRET: 'unit-test-secret-unit-test-secret-unit' });
  const verify = verifier(config);
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: 'u-1', token_use: 'id' };
  const hs256 = (payload: string | object, options: SignOptions = {}) =>
    sign(payload, config.authJwtSecret, { algorithm: 'HS256', ...options });

  it.each([
    ['no exp', () => hs256(claims)],
    ['iat in milliseconds', () => hs256({ ...claims, iat: Date.now() }, { expiresIn: 60 })],
    ['iat two minutes ahead', () => hs256({ ...claims, iat: now + 120, exp: now + 600 })],
    [
      'a payload that is JSON null',
      () => `${base64url({ alg: 'HS256', typ: 'JWT' })}.${Buffer.from('null').toString('base64url')}.x`,
    ],
  ])('refuses a token with %s', async (_, token) => {
    expect(await verify(token())).toBe(false);
  });

  it(`accepts an iat up to ${CLOCK_SKEW_SECONDS} s ahead: the issuer's clock may run a little fast`, async () => {
    expect(await verify(hs256({ ...claims, iat: now + 30, exp: now + 600 }))).toMatchObject({ id: 'u-1' });
  });
});

describe(parseCookieHeader.name, () => {
  it('percent-decodes names and values, as js-cookie and server-side adapters encode them', () => {
    const cookies = parseCookieHeader(
      'a.ann%40acme.example.idToken=x%3Dy; a.LastAuthUser=ann%40acme.example; b="quoted"',
    );
    expect([...cookies]).toEqual([
      ['a.ann@acme.example.idToken', ['x=y']],
      ['a.LastAuthUser', ['ann@acme.example']],
      ['b', ['quoted']],
    ]);
  });

  it('keeps every value of a repeated name, and a malformed escape as it came', () => {
    expect(parseCookieHeader('t=1; t=2; bad=%E0%A4%A; =x; novalue=; junk').get('t')).toEqual(['1', '2']);
    expect([...parseCookieHeader('bad=%E0%A4%A; =x; novalue=; junk')]).toEqual([['bad', ['%E0%A4%A']]]);
  });
});

import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, JWK, SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { memoryDataSource, ssoSignInsStoreOn } from '../../../test/support/memory-data-source';
import { Clock } from '../../common/clock';
import { parseConfig } from '../../config/app-config';
import { SsoConnectionEntity } from '../../database/entities';
import { SsoRequestPurpose } from '../../database/entities/sso.entity';
import { SsoHttp } from '../sso-http';
import { CallbackVerdict } from '../sso-protocol';
import { sealSecret } from '../sso-secrets';
import { SsoSignInsStore } from '../sso-sign-ins.store';
import { OidcClient } from './oidc-client';
import { OidcSignIn } from './oidc-sign-in';

const BASE = 'http://tenants.test';
const CLIENT_ID = 'portal';
const config = parseConfig({});
const clock = new Clock();
const nowSeconds = () => Math.floor(Date.now() / 1000);

type Keys = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * A provider's token endpoint and JWKS on the loopback, in-process: the token endpoint answers
 * `nextAnswer`, an ID token signed by jose unless a test says otherwise.
 */
class TokenEndpoint {
  issuer = '';
  nextAnswer: () => Promise<{ status: number; body: object }> = async () => ({ status: 500, body: {} });
  private server?: Server;
  private publicJwk?: JWK;

  constructor(readonly keys: Keys) {}

  async start(): Promise<void> {
    this.publicJwk = { ...(await exportJWK(this.keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    this.server = createServer((request, response) => {
      request.resume();
      request.once('end', async () => {
        const { status, body } =
          request.url === '/jwks' ? { status: 200, body: { keys: [this.publicJwk] } } : await this.nextAnswer();
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server!.close(() => resolve()));
  }
}

/** An ID token's claims for `nonce`, as the provider signs them. */
const claimsFor = (issuer: string, nonce: string) => ({
  iss: issuer,
  aud: CLIENT_ID,
  sub: 'kim',
  email: 'Kim@Acme.test',
  email_verified: true,
  groups: ['Engineering', 7],
  nonce,
  iat: nowSeconds(),
  exp: nowSeconds() + 300,
});

const signed = (claims: object, key: Keys['privateKey']) =>
  new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(key);
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('OidcSignIn: the callback’s checks', () => {
  let dataSource: DataSource;
  let store: SsoSignInsStore;
  let adapter: OidcSignIn;
  let provider: TokenEndpoint;
  let otherKeys: Keys;

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    store = ssoSignInsStoreOn(dataSource);
    adapter = new OidcSignIn(new OidcClient(new SsoHttp(config), config), store, config, clock);
    provider = new TokenEndpoint(await generateKeyPair('RS256'));
    otherKeys = await generateKeyPair('RS256');
    await provider.start();
  });
  afterAll(async () => {
    await provider.stop();
    await dataSource.destroy();
  });

  const connectionOf = (): SsoConnectionEntity => {
    const id = randomUUID();
    const { issuer } = provider;
    return {
      id,
      tenantId: 'tenant-1',
      type: 'oidc',
      clientId: CLIENT_ID,
      clientSecret: sealSecret(config.sso.secretsKey!, id, 'portal-secret'),
      scopes: 'openid email profile',
      tokenEndpointAuthMethod: 'client_secret_basic',
      discovery: JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
      }),
    } as SsoConnectionEntity;
  };

  /** A sign-in sent to the provider for `connection`: its state and nonce. */
  async function pending(connection: SsoConnectionEntity, purpose: SsoRequestPurpose = 'sign_in', ttlMs = 600_000) {
    const secrets = adapter.newRequestSecrets();
    const now = new Date();
    const request = { ...secrets, connectionId: connection.id, returnTo: '/home', purpose, createdAt: now };
    await store.insertRequest({ ...request, expiresAt: new Date(now.getTime() + ttlMs), usedAt: null });
    return secrets;
  }

  /** The token endpoint's next answer: tokens, with `idToken` when there is one. */
  const answerTokens = (idToken?: string) =>
    (provider.nextAnswer = async () => ({
      status: 200,
      body: { access_token: 'at', token_type: 'Bearer', ...(idToken !== undefined && { id_token: idToken }) },
    }));
  /** The claims for `nonce` changed by `change`, signed by the provider's key (or `key`). */
  const idToken = (nonce: string, change: object = {}, key = provider.keys.privateKey) =>
    signed({ ...claimsFor(provider.issuer, nonce), ...change }, key);
  const verify = (connection: SsoConnectionEntity, query: Record<string, unknown>) =>
    adapter.verify(connection, query, BASE);
  const refusal = (verdict: CallbackVerdict) => ('refused' in verdict ? verdict.refused : verdict);
  const nothingKnown = { email: null, subject: null, test: false };

  it('a valid callback: the person (subject, e-mail in lower case as well as sent, groups) and the sign-in it answers', async () => {
    const connection = connectionOf();
    const { state, nonce } = await pending(connection);
    answerTokens(await idToken(nonce));
    expect(adapter.claimedRequest({ code: 'c', state })).toBe(state);
    expect(await verify(connection, { code: 'c', state })).toEqual({
      person: {
        connection,
        subject: 'kim',
        email: 'kim@acme.test',
        sentEmail: 'Kim@Acme.test',
        groups: ['Engineering'],
        purpose: 'sign_in',
        returnTo: '/home',
      },
    });
  });

  describe('400 SSO_STATE_INVALID', () => {
    it('state missing', async () => {
      expect(refusal(await verify(connectionOf(), { code: 'c' }))).toEqual({
        status: 400,
        code: 'SSO_STATE_INVALID',
        reason: 'state missing',
        ...nothingKnown,
      });
    });

    it.each([
      ['unknown', async () => ({ state: 'nobody-sent-this' })],
      ['another connection', async () => pending(connectionOf())],
      ['expired', async (connection: SsoConnectionEntity) => pending(connection, 'sign_in', -1_000)],
    ])('state %s', async (unusable, sent) => {
      const connection = connectionOf();
      const { state } = await sent(connection);
      expect(refusal(await verify(connection, { code: 'c', state }))).toEqual({
        status: 400,
        code: 'SSO_STATE_INVALID',
        reason: `state ${unusable}`,
        ...nothingKnown,
      });
    });

    it('state already used: of two callbacks with one state, the second', async () => {
      const connection = connectionOf();
      const { state, nonce } = await pending(connection);
      answerTokens(await idToken(nonce));
      expect(await verify(connection, { code: 'c', state })).toHaveProperty('person');
      expect(refusal(await verify(connection, { code: 'c', state }))).toMatchObject({ reason: 'state already used' });
    });
  });

  it('400 SSO_IDP_ERROR: the provider sent an error (of a test sign-in: said so)', async () => {
    const connection = connectionOf();
    const { state } = await pending(connection, 'test');
    const query = { state, error: 'access_denied', error_description: 'the person cancelled' };
    expect(refusal(await verify(connection, query))).toEqual({
      status: 400,
      code: 'SSO_IDP_ERROR',
      reason: 'the provider answered access_denied (the person cancelled)',
      ...nothingKnown,
      test: true,
    });
  });

  it('400 SSO_TOKEN_INVALID: code missing', async () => {
    const connection = connectionOf();
    const { state } = await pending(connection);
    expect(refusal(await verify(connection, { state }))).toEqual({
      status: 400,
      code: 'SSO_TOKEN_INVALID',
      reason: 'code missing',
      ...nothingKnown,
    });
  });

  it('400 SSO_TOKEN_INVALID: the token endpoint refuses the code', async () => {
    const connection = connectionOf();
    const { state } = await pending(connection);
    provider.nextAnswer = async () => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'PKCE verification failed' },
    });
    expect(refusal(await verify(connection, { code: 'c', state }))).toMatchObject({
      code: 'SSO_TOKEN_INVALID',
      reason: 'the token endpoint refused the code: invalid_grant (PKCE verification failed)',
    });
  });

  /** Each forged or broken ID token: what it is, the ID token for the nonce (none: undefined), the check. */
  const forged: [string, (nonce: string) => Promise<string | undefined>, RegExp][] = [
    ['another issuer', (nonce) => idToken(nonce, { iss: 'http://other.test' }), /^iss mismatch: expected "http/],
    ['another audience', (nonce) => idToken(nonce, { aud: 'other' }), /^aud mismatch: expected "portal", got "other"/],
    ['another nonce', (nonce) => idToken(nonce, { nonce: 'other' }), /^nonce mismatch/],
    [
      'expired beyond the skew',
      (nonce) => idToken(nonce, { iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }),
      /^exp: the ID token expired at \S+Z \(now \S+Z, skew 120 s\)$/,
    ],
    [
      'issued in the future beyond the skew',
      (nonce) => idToken(nonce, { iat: nowSeconds() + 3600, exp: nowSeconds() + 7200 }),
      /^iat: the ID token was issued at \S+Z, in the future \(now \S+Z, skew 120 s\)$/,
    ],
    [
      'signed by another key',
      (nonce) => idToken(nonce, {}, otherKeys.privateKey),
      /^signature: the ID token's signature does not verify with the provider's key \(JWKS http/,
    ],
    [
      'alg none',
      async (nonce) => `${base64url({ alg: 'none' })}.${base64url(claimsFor(provider.issuer, nonce))}.`,
      /^alg: the ID token is signed with "none", not one of RS256, ES256, PS256$/,
    ],
    [
      'alg HS256, keyed with the client secret',
      (nonce) =>
        new SignJWT(claimsFor(provider.issuer, nonce))
          .setProtectedHeader({ alg: 'HS256' })
          .sign(new TextEncoder().encode('portal-secret')),
      /^alg: the ID token is signed with "HS256", not one of RS256, ES256, PS256$/,
    ],
    ['no ID token', async () => undefined, /^the token endpoint answered no ID token$/],
  ];

  it.each(forged)('400 SSO_TOKEN_INVALID: %s', async (_, token, reason) => {
    const connection = connectionOf();
    const { state, nonce } = await pending(connection);
    answerTokens(await token(nonce));
    expect(refusal(await verify(connection, { code: 'c', state }))).toEqual({
      status: 400,
      code: 'SSO_TOKEN_INVALID',
      reason: expect.stringMatching(reason),
      ...nothingKnown,
    });
  });

  it.each([
    ['no email claim', { email: undefined }, 'the ID token has no email claim', null],
    ['an email claim that is not an address', { email: 'kim' }, 'the ID token has no email claim', 'kim'],
    ['email_verified false', { email_verified: false }, 'email_verified is false', 'Kim@Acme.test'],
  ])('400 SSO_TOKEN_INVALID: %s, the person known', async (_, change, reason, email) => {
    const connection = connectionOf();
    const { state, nonce } = await pending(connection);
    answerTokens(await idToken(nonce, change));
    expect(refusal(await verify(connection, { code: 'c', state }))).toEqual({
      status: 400,
      code: 'SSO_TOKEN_INVALID',
      reason,
      email,
      subject: 'kim',
      test: false,
    });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SsoRequestEntity } from '../src/database/entities';
import { sealSecret } from '../src/sso/sso-secrets';
import { PROVIDER_HOOK_TIMEOUT_MS, TestOidcProvider } from './support/oidc-provider';
import { useOidcSuite } from './support/sso';

/** docs/sso.md's list of OIDC refusals: each reason as written, `<…>` for a value of the sign-in. */
function documentedReasons(): string[] {
  const text = readFileSync(join(__dirname, '..', 'docs', 'sso.md'), 'utf8');
  const section = text.split('\n## Why an OpenID Connect sign-in was refused\n')[1].split('\n## ')[0];
  return section
    .split('\n')
    .filter((line) => /^\| \d{3} /.test(line))
    .map((line) => line.split(' | ')[1].replace(/^`|`$/g, ''));
}
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patternOf = (template: string) =>
  new RegExp(
    `^${template
      .split(/<[^>]+>/)
      .map(escaped)
      .join('.+?')}$`,
  );
/** The last resort, which names no check of ours: no sign-in here reaches it. */
const LAST_RESORT = 'the token response was refused: <the library';

/**
 * docs/sso.md, "Why an OpenID Connect sign-in was refused": every reason it lists, sent by a real
 * provider (or a forger behind it) and asserted word for word, in the answer and in the attempt.
 */
describe('single sign-on: why an OpenID Connect sign-in was refused', () => {
  const provider = new TestOidcProvider();
  beforeAll(() => provider.start(), PROVIDER_HOOK_TIMEOUT_MS);
  afterAll(() => provider.stop());
  const { t, expectRefused, activeConnection, callbackFor, callback, connections } = useOidcSuite(provider);
  const requests = () => t.dataSource.getRepository(SsoRequestEntity);
  const documented = documentedReasons();
  const sent = new Set<string>();

  /** The refusal, as expectRefused checks it (status, body, attempt, event), and its reason found in the docs. */
  const refusedWith = async (
    res: Parameters<typeof expectRefused>[0],
    id: string,
    status: number,
    code: string,
    reason: string | RegExp,
  ) => {
    await expectRefused(res, id, status, code, typeof reason === 'string' ? reason : expect.stringMatching(reason));
    const given = (res.body as { reason: string }).reason;
    const template = documented.find((candidate) => patternOf(candidate).test(given));
    expect([given, template]).toEqual([given, expect.any(String)]);
    sent.add(template!);
  };
  /** A sign-in sent to the provider: its state, as the authorisation request carries it. */
  const pendingState = async (id: string) => {
    const started = await t.http.get('/sso/start').query({ connection: id });
    return new URL(started.headers.location).searchParams.get('state')!;
  };
  const callbackQuery = (id: string, query: Record<string, string>) =>
    t.http.get(`/sso/oidc/${id}/callback`).query(query);
  /** The connection's stored discovery document with `changes`, as if the provider had said so. */
  const discoveryWith = async (id: string, changes: Record<string, unknown>) => {
    const row = await connections().findOneByOrFail({ id });
    await connections().update({ id }, { discovery: JSON.stringify({ ...JSON.parse(row.discovery), ...changes }) });
  };
  /** A callback whose code exchange answers the forger's ID token (or token response). */
  const forged = async (change: Parameters<TestOidcProvider['tamperNext']>[0]) => {
    const { id, domain } = await activeConnection();
    const url = await callbackFor(id, { sub: 'forged', email: `forged@${domain}` });
    await provider.tamperNext(change);
    return { id, res: await callback(url) };
  };
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  const clock = (claim: string, at: number, more = '') =>
    new RegExp(`^${claim}: ${escaped(more)}.*${escaped(iso(at))}.* \\(now \\S+Z, skew 120 s\\)$`);

  describe('GET /sso/start', () => {
    it('503 SSO_SECRET_UNREADABLE: a client secret that no key of SSO_SECRETS_KEY opens', async () => {
      const { id } = await activeConnection();
      await connections().update({ id }, { clientSecret: sealSecret(Buffer.alloc(32, 1), id, 'secret') });
      const res = await t.http.get('/sso/start').query({ connection: id });
      await refusedWith(
        res,
        id,
        503,
        'SSO_SECRET_UNREADABLE',
        'no key of SSO_SECRETS_KEY opens the stored client secret: an owner re-enters the client secret ' +
          '(PATCH the connection with its clientSecret)',
      );
      expect(await requests().countBy({ connectionId: id })).toBe(0);
    });
  });

  describe('GET /sso/oidc/{id}/callback', () => {
    it('400 SSO_STATE_INVALID: missing, unknown, another connection’s, already used, expired', async () => {
      const { id, domain } = await activeConnection();
      await refusedWith(await callbackQuery(id, { code: 'c' }), id, 400, 'SSO_STATE_INVALID', 'state missing');
      await refusedWith(
        await callbackQuery(id, { code: 'c', state: 'forged' }),
        id,
        400,
        'SSO_STATE_INVALID',
        'state unknown',
      );
      const other = await activeConnection();
      const state = await pendingState(other.id);
      await refusedWith(
        await callbackQuery(id, { code: 'c', state }),
        id,
        400,
        'SSO_STATE_INVALID',
        'state another connection',
      );
      const url = await callbackFor(id, { sub: 'twice', email: `twice@${domain}` });
      expect((await callback(url)).status).toBe(302);
      await refusedWith(await callback(url), id, 400, 'SSO_STATE_INVALID', 'state already used');
      const late = await pendingState(id);
      await requests().update({ state: late }, { expiresAt: new Date(Date.now() - 1000) });
      await refusedWith(
        await callbackQuery(id, { code: 'c', state: late }),
        id,
        400,
        'SSO_STATE_INVALID',
        'state expired',
      );
    });

    it('400 SSO_IDP_ERROR: the provider’s error and its description', async () => {
      const { id } = await activeConnection();
      const state = await pendingState(id);
      const res = await callbackQuery(id, { state, error: 'access_denied', error_description: 'Kim said no' });
      await refusedWith(res, id, 400, 'SSO_IDP_ERROR', 'the provider answered access_denied (Kim said no)');
    });

    it('400 SSO_TOKEN_INVALID: code missing', async () => {
      const { id } = await activeConnection();
      const res = await callbackQuery(id, { state: await pendingState(id) });
      await refusedWith(res, id, 400, 'SSO_TOKEN_INVALID', 'code missing');
    });

    it('400 SSO_TOKEN_INVALID: the redirect’s iss parameter names another issuer, or is missing though promised', async () => {
      const { id, domain } = await activeConnection();
      const mixedUp = await callbackFor(id, { sub: 'i', email: `i@${domain}` });
      mixedUp.searchParams.set('iss', 'https://evil.example');
      await refusedWith(
        await callback(mixedUp),
        id,
        400,
        'SSO_TOKEN_INVALID',
        `iss mismatch: expected "${provider.issuer}", got "https://evil.example" in the provider's redirect`,
      );
      const stripped = await callbackFor(id, { sub: 'i', email: `i@${domain}` });
      stripped.searchParams.delete('iss');
      await refusedWith(
        await callback(stripped),
        id,
        400,
        'SSO_TOKEN_INVALID',
        "the provider's redirect has no iss parameter, which its discovery document promises",
      );
    });

    it('400 SSO_TOKEN_INVALID: the token endpoint unreachable, or answering an error status without an OAuth error', async () => {
      const { id, domain } = await activeConnection();
      await discoveryWith(id, { token_endpoint: 'http://127.0.0.1:1/token' });
      const closed = await callback(await callbackFor(id, { sub: 'u', email: `u@${domain}` }));
      await refusedWith(
        closed,
        id,
        400,
        'SSO_TOKEN_INVALID',
        /^the token endpoint could not be reached: http:\/\/127\.0\.0\.1:1 unreachable: /,
      );
      await discoveryWith(id, { token_endpoint: `${provider.issuer}/no-such-endpoint` });
      const missing = await callback(await callbackFor(id, { sub: 'u', email: `u@${domain}` }));
      await refusedWith(
        missing,
        id,
        400,
        'SSO_TOKEN_INVALID',
        'the token endpoint answered HTTP 404 without an OAuth error',
      );
    });

    it('400 SSO_TOKEN_INVALID: the token endpoint refuses the client, naming the method used and the other one to try', async () => {
      const { id, domain } = await activeConnection();
      await connections().update({ id }, { clientSecret: sealSecret(t.config.sso.secretsKey!, id, 'wrong') });
      const res = await callback(await callbackFor(id, { sub: 'c', email: `c@${domain}` }));
      await refusedWith(
        res,
        id,
        400,
        'SSO_TOKEN_INVALID',
        'the token endpoint refused the client: invalid_client (client authentication failed); the client ' +
          'authenticated by client_secret_basic: check the client id and secret, or try client_secret_post ' +
          '(PATCH the connection with {"tokenEndpointAuthMethod":"client_secret_post"})',
      );
    });

    it('400 SSO_TOKEN_INVALID: the token endpoint refuses the code (a PKCE verifier not its)', async () => {
      const { id, domain } = await activeConnection();
      const url = await callbackFor(id, { sub: 'v', email: `v@${domain}` });
      await requests().update({ state: url.searchParams.get('state')! }, { codeVerifier: 'f'.repeat(43) });
      await refusedWith(
        await callback(url),
        id,
        400,
        'SSO_TOKEN_INVALID',
        /^the token endpoint refused the code: invalid_grant \(.+\)$/,
      );
    });

    it('400 SSO_TOKEN_INVALID: not a token response, or one without an ID token', async () => {
      const notTokens = await forged({ body: { access_token: null, token_type: null } });
      await refusedWith(
        notTokens.res,
        notTokens.id,
        400,
        'SSO_TOKEN_INVALID',
        'the token endpoint did not answer a token response (JSON with access_token and token_type)',
      );
      const noIdToken = await forged({ body: { id_token: null } });
      await refusedWith(
        noIdToken.res,
        noIdToken.id,
        400,
        'SSO_TOKEN_INVALID',
        'the token endpoint answered no ID token',
      );
    });

    it.each([
      ['none', { alg: 'none' as const }],
      ['HS256 keyed with the provider’s public key', { alg: 'HS256' as const }],
    ])('400 SSO_TOKEN_INVALID: alg %s', async (_, change) => {
      const { id, res } = await forged(change);
      const alg = change.alg;
      await refusedWith(
        res,
        id,
        400,
        'SSO_TOKEN_INVALID',
        `alg: the ID token is signed with "${alg}", not one of RS256, ES256, PS256`,
      );
    });

    it('400 SSO_TOKEN_INVALID: signature, by a key the provider does not publish, or another key under its kid', async () => {
      const jwks = `${provider.issuer}/jwks`;
      const unknown = await forged({ kid: 'rolled-over' });
      await refusedWith(
        unknown.res,
        unknown.id,
        400,
        'SSO_TOKEN_INVALID',
        `signature: no key of the provider's JWKS (${jwks}) has the ID token's kid "rolled-over"`,
      );
      const other = await forged({ key: 'other', claims: {} });
      await refusedWith(
        other.res,
        other.id,
        400,
        'SSO_TOKEN_INVALID',
        `signature: the ID token's signature does not verify with the provider's key (JWKS ${jwks})`,
      );
    });

    it('400 SSO_TOKEN_INVALID: iss, aud and azp mismatches, with what was expected and what came', async () => {
      const iss = await forged({ claims: { iss: 'https://evil.example' } });
      await refusedWith(
        iss.res,
        iss.id,
        400,
        'SSO_TOKEN_INVALID',
        `iss mismatch: expected "${provider.issuer}", got "https://evil.example"`,
      );
      const aud = await forged({ claims: { aud: ['another-client'] } });
      await refusedWith(
        aud.res,
        aud.id,
        400,
        'SSO_TOKEN_INVALID',
        `aud mismatch: expected "${provider.clientId}", got ["another-client"]`,
      );
      const azp = await forged({ claims: { aud: [provider.clientId, 'another-client'], azp: 'another-client' } });
      await refusedWith(
        azp.res,
        azp.id,
        400,
        'SSO_TOKEN_INVALID',
        `azp mismatch: expected "${provider.clientId}", got "another-client"`,
      );
    });

    it('400 SSO_TOKEN_INVALID: nonce mismatch, never showing either nonce', async () => {
      const { id, res } = await forged({ claims: { nonce: 'another-sign-in' } });
      await refusedWith(
        res,
        id,
        400,
        'SSO_TOKEN_INVALID',
        "nonce mismatch: the ID token's nonce is not the one this sign-in sent",
      );
    });

    it('400 SSO_TOKEN_INVALID: exp, nbf and iat beyond the skew, with the times and the skew', async () => {
      const past = nowSeconds() - 3600;
      const expired = await forged({ claims: { exp: past, iat: past - 60 } });
      await refusedWith(
        expired.res,
        expired.id,
        400,
        'SSO_TOKEN_INVALID',
        clock('exp', past, 'the ID token expired at '),
      );
      const later = nowSeconds() + 3600;
      const early = await forged({ claims: { nbf: later } });
      await refusedWith(
        early.res,
        early.id,
        400,
        'SSO_TOKEN_INVALID',
        clock('nbf', later, 'the ID token is not valid before '),
      );
      const future = await forged({ claims: { iat: later, exp: later + 3600 } });
      await refusedWith(
        future.res,
        future.id,
        400,
        'SSO_TOKEN_INVALID',
        clock('iat', later, 'the ID token was issued at '),
      );
    });

    it('400 SSO_TOKEN_INVALID: no email claim; email_verified false', async () => {
      const { id, domain } = await activeConnection();
      const none = await callback(await callbackFor(id, { sub: 'no-mail', email: '' }));
      await refusedWith(none, id, 400, 'SSO_TOKEN_INVALID', 'the ID token has no email claim');
      await provider.nextLogin({ sub: 'unverified', email: `unverified@${domain}`, email_verified: false });
      const started = await t.http.get('/sso/start').query({ connection: id });
      const unverified = await callback(await provider.authorize(started.headers.location));
      await refusedWith(unverified, id, 400, 'SSO_TOKEN_INVALID', 'email_verified is false');
    });

    it('503 SSO_SECRET_UNREADABLE at the callback: the secret became unreadable after the start', async () => {
      const { id, domain } = await activeConnection();
      const url = await callbackFor(id, { sub: 's', email: `s@${domain}` });
      await connections().update({ id }, { clientSecret: sealSecret(Buffer.alloc(32, 2), id, 'secret') });
      await refusedWith(
        await callback(url),
        id,
        503,
        'SSO_SECRET_UNREADABLE',
        'no key of SSO_SECRETS_KEY opens the stored client secret: an owner re-enters the client secret ' +
          '(PATCH the connection with its clientSecret)',
      );
    });
  });

  it('every reason docs/sso.md lists was sent above, but the last resort', () => {
    expect(documented.filter((template) => !template.startsWith(LAST_RESORT) && !sent.has(template))).toEqual([]);
    expect(documented.length).toBeGreaterThan(20);
  });
});

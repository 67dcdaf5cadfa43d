import { randomUUID } from 'node:crypto';
import { SsoIdentityEntity, SsoRequestEntity } from '../src/database/entities';
import { openSecretWith, sealSecret } from '../src/sso/sso-secrets';
import { PUBLIC_BASE_URL_REQUIRED } from '../src/sso/sso.messages';
import { invalidRequest } from './support/documented-http';
import { PROVIDER_HOOK_TIMEOUT_MS, TestOidcProvider } from './support/oidc-provider';
import { SSO_BASE, ssoRefused, useOidcSuite } from './support/sso';
import { useOrganisationSuite } from './support/suites';
import { localOnly } from './support/test-identity';

/**
 * An OIDC connection's settings (docs/sso.md, "OIDC"): how the client authenticates at the token
 * endpoint, the issuer and client id changed in place, every address of the discovery document under
 * the SSRF rule, the secrets key's rotation, and the address the service names itself by.
 */
describe('single sign-on: an OIDC connection’s settings', () => {
  const provider = new TestOidcProvider();
  beforeAll(() => provider.start(), PROVIDER_HOOK_TIMEOUT_MS);
  afterAll(() => provider.stop());
  const { t, org, events, connections, create, patch, activeConnection, signIn } = useOidcSuite(provider);
  afterEach(() => provider.changeDiscovery({}));
  const countOwn = () => connections().countBy({ tenantId: org.tenant.id });

  describe('POST /api/org/sso/connections', () => {
    it('tokenEndpointAuthMethod: client_secret_basic when the document offers it, shown and stored', async () => {
      const res = await create();
      expect([res.status, res.body.connection.oidc]).toEqual([
        201,
        {
          issuer: provider.issuer,
          clientId: provider.clientId,
          scopes: ['openid', 'email', 'profile'],
          tokenEndpointAuthMethod: 'client_secret_basic',
        },
      ]);
      const row = await connections().findOneByOrFail({ id: res.body.connection.id });
      expect(row.tokenEndpointAuthMethod).toBe('client_secret_basic');
    });

    it('a document that offers client_secret_post and not basic: post; one that lists no method: basic (OIDC Discovery)', async () => {
      await provider.changeDiscovery({
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt'],
      });
      const post = await create();
      expect(post.body.connection.oidc.tokenEndpointAuthMethod).toBe('client_secret_post');
      await provider.changeDiscovery({ token_endpoint_auth_methods_supported: null });
      const unlisted = await create();
      expect(unlisted.body.connection.oidc.tokenEndpointAuthMethod).toBe('client_secret_basic');
    });

    it('an owner’s choice is kept; any other method is 400 SSO_CONNECTION_INVALID and nothing is stored', async () => {
      const chosen = await create({ tokenEndpointAuthMethod: 'client_secret_post' });
      expect(chosen.body.connection.oidc.tokenEndpointAuthMethod).toBe('client_secret_post');
      const res = await invalidRequest(() => create({ tokenEndpointAuthMethod: 'private_key_jwt' }));
      expect([res.status, res.body]).toEqual([
        400,
        ssoRefused(
          'SSO_CONNECTION_INVALID',
          'tokenEndpointAuthMethod must be "client_secret_basic" or "client_secret_post"',
        ),
      ]);
      expect(await countOwn()).toBe(1);
    });

    it.each([
      ['userinfo_endpoint', 'file:///etc/passwd', 'userinfo_endpoint: file: is not fetched'],
      ['end_session_endpoint', 'javascript:alert(1)', 'end_session_endpoint: javascript: is not fetched'],
      ['revocation_endpoint', 'not a url', 'revocation_endpoint is not a URL: "not a url"'],
      [
        'mtls_endpoint_aliases',
        { token_endpoint: 'gopher://idp.test/token' },
        'mtls_endpoint_aliases.token_endpoint: gopher:',
      ],
    ])(
      'every address of the discovery document under the SSRF rule: %s refused, 422 SSO_DISCOVERY_FAILED, nothing stored',
      async (field, value, reason) => {
        await provider.changeDiscovery({ [field]: value });
        const res = await create();
        expect([res.status, res.body]).toEqual([
          422,
          ssoRefused('SSO_DISCOVERY_FAILED', expect.stringContaining(reason)),
        ]);
        expect(await countOwn()).toBe(0);
      },
    );
  });

  describe('PATCH /api/org/sso/connections/{id}', () => {
    /** The provider under another address of its own, which its document then names as the issuer. */
    const otherAddress = () => provider.issuer.replace('127.0.0.1', 'localhost');

    it('issuer and clientId: the issuer re-discovered; the id, the redirect URI and the people stay; the event names them', async () => {
      const { id, domain } = await activeConnection();
      expect((await signIn(id, { sub: 'kept', email: `kept@${domain}` })).status).toBe(302);
      const before = (await t.http.get(`/api/org/sso/connections/${id}`).set('Cookie', org.ownerCookie)).body;
      await provider.changeDiscovery({ issuer: otherAddress() });
      const res = await patch(id, { issuer: otherAddress(), clientId: 'renamed-client' });
      expect(res.status).toBe(200);
      expect(res.body.connection).toEqual({
        ...before.connection,
        oidc: { ...before.connection.oidc, issuer: otherAddress(), clientId: 'renamed-client' },
        lastLogin: expect.any(Object),
      });
      expect(res.body.connection.sp).toEqual({ redirectUri: `${SSO_BASE}/sso/oidc/${id}/callback` });
      const row = await connections().findOneByOrFail({ id });
      expect([row.issuer, row.clientId, JSON.parse(row.discovery).issuer]).toEqual([
        otherAddress(),
        'renamed-client',
        otherAddress(),
      ]);
      expect(await t.dataSource.getRepository(SsoIdentityEntity).countBy({ connectionId: id })).toBe(1);
      const [updated] = (await events('sso.connection_updated')).map((event) => JSON.parse(event.data));
      expect(updated.changed).toEqual(['issuer', 'clientId']);
    });

    it('422 SSO_DISCOVERY_FAILED as at creation: a document of another issuer, an issuer unreachable; nothing changed', async () => {
      const { id } = (await create()).body.connection;
      const mismatch = await patch(id, { issuer: otherAddress(), clientId: 'not-taken' });
      expect([mismatch.status, mismatch.body]).toEqual([
        422,
        ssoRefused(
          'SSO_DISCOVERY_FAILED',
          `issuer mismatch: expected ${otherAddress()}, the document says "${provider.issuer}"`,
        ),
      ]);
      const closed = await patch(id, { issuer: 'http://127.0.0.1:1' });
      expect([closed.status, closed.body]).toEqual([
        422,
        ssoRefused('SSO_DISCOVERY_FAILED', expect.stringContaining('http://127.0.0.1:1 unreachable')),
      ]);
      expect(await connections().findOneByOrFail({ id })).toMatchObject({
        issuer: provider.issuer,
        clientId: provider.clientId,
      });
    });

    it('tokenEndpointAuthMethod changes; a bad value, or a SAML field on an OIDC connection, is 400 with nothing changed', async () => {
      const { id } = (await create()).body.connection;
      const res = await patch(id, { tokenEndpointAuthMethod: 'client_secret_post' });
      expect(res.body.connection.oidc.tokenEndpointAuthMethod).toBe('client_secret_post');
      const bad = await invalidRequest(() => patch(id, { tokenEndpointAuthMethod: 'none' }));
      expect([bad.status, bad.body]).toEqual([400, ssoRefused('SSO_CONNECTION_INVALID')]);
      const saml = await patch(id, { wantAssertionsSigned: false, clientId: 'x' });
      expect([saml.status, saml.body]).toEqual([
        400,
        ssoRefused(
          'SSO_CONNECTION_INVALID',
          'metadataXml, metadataUrl and wantAssertionsSigned belong to SAML connections',
        ),
      ]);
      expect(await connections().findOneByOrFail({ id })).toMatchObject({
        tokenEndpointAuthMethod: 'client_secret_post',
        clientId: provider.clientId,
      });
    });
  });

  describe('GET /api/org/sso', () => {
    it('shows the address redirect URIs and ACS URLs are made from: PUBLIC_BASE_URL', async () => {
      const res = await t.http.get('/api/org/sso').set('Cookie', org.ownerCookie);
      expect([res.status, res.body.serviceAddress]).toEqual([200, { baseUrl: SSO_BASE, from: 'PUBLIC_BASE_URL' }]);
    });
  });
});

describe('single sign-on: a provider that does not form-decode Basic credentials (as Glewlwyd)', () => {
  const provider = new TestOidcProvider();
  beforeAll(
    () => provider.start('tenant-service', 'tenant-secret', { basicCredentials: 'raw' }),
    PROVIDER_HOOK_TIMEOUT_MS,
  );
  afterAll(() => provider.stop());
  const { factory, org, expectRefused, patch, activeConnection, signIn } = useOidcSuite(provider);

  describe('GET /sso/oidc/{id}/callback', () => {
    it('client_secret_basic sends tenant-service as tenant%2Dservice: refused, the reason names the method and the other; client_secret_post signs in', async () => {
      const { id, domain } = await activeConnection();
      const member = await factory.member(org.tenant.id, { email: `glen@${domain}` });
      const refused = await signIn(id, { sub: 'glen', email: member.email });
      await expectRefused(
        refused,
        id,
        400,
        'SSO_TOKEN_INVALID',
        'the token endpoint refused the client: invalid_client (client authentication failed); the client ' +
          'authenticated by client_secret_basic: check the client id and secret, or try client_secret_post ' +
          '(PATCH the connection with {"tokenEndpointAuthMethod":"client_secret_post"})',
      );
      expect((await patch(id, { tokenEndpointAuthMethod: 'client_secret_post' })).status).toBe(200);
      const res = await signIn(id, { sub: 'glen', email: member.email });
      expect(res.status).toBe(302);
      expect(res.headers['set-cookie']).toHaveLength(1);
    });
  });
});

describe('single sign-on: SSO_SECRETS_KEY with a new and an old key', () => {
  const [newKey, oldKey] = [Buffer.alloc(32, 3), Buffer.alloc(32, 4)];
  const provider = new TestOidcProvider();
  beforeAll(() => provider.start(), PROVIDER_HOOK_TIMEOUT_MS);
  afterAll(() => provider.stop());
  const { t, expectRefused, connections, create, patch, activeConnection, signIn } = useOidcSuite(provider, {
    SSO_SECRETS_KEY: `${newKey.toString('hex')},${oldKey.toString('base64')}`,
  });

  describe('POST /api/org/sso/connections', () => {
    it('a secret is written with the first key', async () => {
      const { id } = (await create()).body.connection;
      const row = await connections().findOneByOrFail({ id });
      expect(openSecretWith([newKey, oldKey], id, row.clientSecret)).toEqual({ secret: provider.clientSecret, key: 0 });
    });
  });

  describe('GET /sso/start', () => {
    it('a secret sealed under the old key is read: the sign-in goes through', async () => {
      const { id, domain } = await activeConnection();
      await connections().update({ id }, { clientSecret: sealSecret(oldKey, id, provider.clientSecret) });
      expect((await signIn(id, { sub: 'old-key', email: `old-key@${domain}` })).status).toBe(302);
    });

    it('a secret that no key opens: 503 SSO_SECRET_UNREADABLE, an attempt and sso.login_failed, never a 500; PATCH clientSecret mends it', async () => {
      const { id, domain } = await activeConnection();
      await connections().update({ id }, { clientSecret: sealSecret(randomKey(), id, provider.clientSecret) });
      const res = await t.http.get('/sso/start').query({ connection: id });
      await expectRefused(
        res,
        id,
        503,
        'SSO_SECRET_UNREADABLE',
        expect.stringContaining('re-enters the client secret'),
      );
      expect(await t.dataSource.getRepository(SsoRequestEntity).countBy({ connectionId: id })).toBe(0);
      expect((await patch(id, { clientSecret: provider.clientSecret })).status).toBe(200);
      expect((await signIn(id, { sub: 'mended', email: `mended@${domain}` })).status).toBe(302);
    });
  });
});

const randomKey = () => Buffer.from(randomUUID().replace(/-/g, '').repeat(2), 'hex');

describe('single sign-on under NODE_ENV=production without PUBLIC_BASE_URL', () => {
  const { t, org } = useOrganisationSuite({
    app: {
      env: {
        NODE_ENV: 'production',
        SSO_SECRETS_KEY: 'b'.repeat(64),
        SHUTDOWN_DRAIN_SECONDS: '0',
        LOG_LEVEL: 'silent',
      },
    },
  });

  describe('GET /sso/start', () => {
    it('every sign-in start answers 503 SSO_NOT_CONFIGURED naming PUBLIC_BASE_URL, before anything is looked up or stored', async () => {
      // In cognito mode every SSO route asks for PUBLIC_BASE_URL already, its sessions' issuer.
      const reason =
        t.testIdentity.mode === 'local' ? PUBLIC_BASE_URL_REQUIRED : expect.stringContaining('PUBLIC_BASE_URL');
      for (const query of [{ connection: randomUUID() }, { email: 'kim@acme.test' }]) {
        const res = await t.http.get('/sso/start').query(query);
        expect([res.status, res.body]).toEqual([503, ssoRefused('SSO_NOT_CONFIGURED', reason)]);
      }
      expect(await t.dataSource.getRepository(SsoRequestEntity).count()).toBe(0);
    });
  });

  describe('GET /api/org/sso', () => {
    localOnly('shows that the address is derived from the request', async () => {
      const res = await t.http.get('/api/org/sso').set('Cookie', org.ownerCookie).set('Host', 'tenants.example.com');
      expect([res.status, res.body.serviceAddress]).toEqual([
        200,
        { baseUrl: expect.stringMatching(/^https?:\/\/tenants\.example\.com$/), from: 'request' },
      ]);
    });
  });
});

import http from 'node:http';
import { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import {
  MemberRoleEntity,
  SsoAssertionEntity,
  SsoConnectionEntity,
  SsoIdentityEntity,
  SsoRequestEntity,
  TenantEntity,
} from '../src/database/entities';
import { CertificateExpiryWarnings } from '../src/sso/saml/certificate-expiry-warnings';
import { useDomainsSuite } from './support/domains';
import { claimsOf, heldDomain, mapGroupsToRoles, SSO_BASE, SSO_PORTAL, ssoRecords, ssoRefused } from './support/sso';
import { newInviter } from './support/inviting';
import { ResponseOptions, signingKey, TestSamlIdp } from './support/saml-idp';
import { oktaUser, PATCH_OP, scimClient, scimToken } from './support/scim';
import { useTwoInstances } from './support/suites';

const BASE = SSO_BASE;
const PORTAL = SSO_PORTAL;
const refused = ssoRefused;
const decode = claimsOf;
const endpoints = (id: string) => ({
  entityId: `${BASE}/sso/saml/${id}/metadata`,
  acsUrl: `${BASE}/sso/saml/${id}/acs`,
  metadataUrl: `${BASE}/sso/saml/${id}/metadata`,
});

/** A server on the loopback that serves whatever metadata the test sets. */
class MetadataServer {
  body = '';
  private server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
    response.end(this.body);
  });
  url = '';
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/metadata`;
  }
  stop() {
    return new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Single sign-on by SAML 2.0 (docs/sso.md, "SAML"): connections from an IdP's metadata, the SP
 * metadata, the start's AuthnRequest, sign-ins through an Okta-shaped and an Entra-shaped provider
 * whose responses the test signs with xml-crypto, and every forged or stale response refused.
 */
describe('single sign-on: SAML', () => {
  let okta: TestSamlIdp;
  let entra: TestSamlIdp;
  const metadataServer = new MetadataServer();
  beforeAll(async () => {
    [okta, entra] = await Promise.all([
      TestSamlIdp.create('okta'),
      TestSamlIdp.create('entra'),
      metadataServer.start(),
    ]);
  });
  afterAll(() => metadataServer.stop());
  const { t, factory, org, verified, person } = useDomainsSuite({
    PUBLIC_BASE_URL: BASE,
    SSO_RETURN_ORIGINS: PORTAL,
    SSO_HTTP_TIMEOUT_MS: '2000',
  });
  const connections = () => t.dataSource.getRepository(SsoConnectionEntity);
  const { attempts, events, expectRefused } = ssoRecords(t, org);

  const create = (body: object = {}, idp = okta) =>
    t.http
      .post('/api/org/sso/connections')
      .set('Cookie', org.ownerCookie)
      .send({ type: 'saml', metadataXml: idp.metadata(), ...body });
  const patch = (id: string, body: object) =>
    t.http.patch(`/api/org/sso/connections/${id}`).set('Cookie', org.ownerCookie).send(body);
  /** An active connection of the organisation to `idp`, and a verified domain of it. */
  const activeConnection = async (body: object = {}, idp = okta) => {
    const domain = await verified();
    const created = await create(body, idp);
    expect(created.status).toBe(201);
    const id = created.body.connection.id as string;
    expect((await patch(id, { status: 'active' })).status).toBe(200);
    return { id, domain, ...endpoints(id) };
  };
  /** The browser's start: the AuthnRequest's ID, which the response answers. */
  const start = async (id: string, returnTo?: string) => {
    const res = await t.http.get('/sso/start').query({ connection: id, ...(returnTo && { returnTo }) });
    expect(res.status).toBe(302);
    return TestSamlIdp.authnRequest(res.headers.location);
  };
  const post = (id: string, samlResponse: string, relayState?: string) =>
    t.http
      .post(`/sso/saml/${id}/acs`)
      .type('form')
      .send({ SAMLResponse: samlResponse, ...(relayState !== undefined && { RelayState: relayState }) });
  /** A sign-in from the start: the provider answers the request with `options`. */
  const signIn = async (
    id: string,
    email: string,
    options: Partial<ResponseOptions> = {},
    idp = okta,
    returnTo?: string,
  ) => {
    const request = await start(id, returnTo);
    const response = idp.response({
      ...endpoints(id),
      audience: endpoints(id).entityId,
      email,
      inResponseTo: request.id,
      ...options,
    });
    return post(id, response, request.relayState ?? undefined);
  };
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    (res.headers['set-cookie'] as string[])[0].split(';')[0];

  describe('POST /api/org/sso/connections (SAML)', () => {
    it('pasted metadata: 201, a draft with the IdP’s entity ID, SSO URL and every signing certificate; the SP side per connection', async () => {
      const next = await signingKey();
      const res = await create({ name: 'Okta', metadataXml: okta.metadata([okta.key.cert, next.cert]) });
      expect(res.status).toBe(201);
      const { id } = res.body.connection;
      expect(res.body).toEqual({
        success: true,
        connection: {
          id,
          type: 'saml',
          name: 'Okta',
          status: 'draft',
          jit: true,
          defaultRole: 'member',
          allowIdpInitiated: false,
          primary: false,
          createdAt: expect.any(String),
          saml: {
            idpEntityId: okta.entityId,
            idpSsoUrl: okta.ssoUrl,
            metadataUrl: null,
            wantAssertionsSigned: true,
            certificates: [
              { fingerprint: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/), notAfter: expect.any(String) },
              { fingerprint: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/), notAfter: expect.any(String) },
            ],
          },
          sp: endpoints(id),
          lastLogin: null,
        },
      });
      expect(await connections().findOneByOrFail({ id })).toMatchObject({
        type: 'saml',
        issuer: okta.entityId,
        clientSecret: '',
        metadataUrl: null,
      });
      expect(await events('sso.connection_created')).toHaveLength(1);
    });

    it('metadata at an address: read, kept, and read again by refresh (the provider’s new certificate taken)', async () => {
      metadataServer.body = okta.metadata();
      const res = await create({ metadataXml: undefined, metadataUrl: metadataServer.url });
      expect(res.status).toBe(201);
      expect(res.body.connection.saml).toMatchObject({ metadataUrl: metadataServer.url, idpEntityId: okta.entityId });
      expect(res.body.connection.saml.certificates).toHaveLength(1);
      const next = await signingKey();
      metadataServer.body = okta.metadata([okta.key.cert, next.cert]);
      const { id } = res.body.connection;
      const refreshed = await t.http.post(`/api/org/sso/connections/${id}/refresh`).set('Cookie', org.ownerCookie);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.connection.saml.certificates).toHaveLength(2);
      const [updated] = (await events('sso.connection_updated')).map((event) => JSON.parse(event.data));
      expect(updated.changed).toEqual(['metadata']);
    });

    it('refresh of pasted metadata: 422 SSO_METADATA_INVALID; PATCH takes new metadata', async () => {
      const { id } = (await create()).body.connection;
      const refresh = await t.http.post(`/api/org/sso/connections/${id}/refresh`).set('Cookie', org.ownerCookie);
      expect([refresh.status, refresh.body]).toEqual([
        422,
        refused('SSO_METADATA_INVALID', expect.stringMatching(/pasted/)),
      ]);
      const next = await signingKey();
      const res = await patch(id, { metadataXml: okta.metadata([next.cert]), wantAssertionsSigned: false });
      expect(res.status).toBe(200);
      expect(res.body.connection.saml).toMatchObject({ wantAssertionsSigned: false });
      expect(await connections().findOneByOrFail({ id })).toMatchObject({ wantAssertionsSigned: 0 });
      const oidcOnly = await patch(id, { clientSecret: 'x' });
      expect([oidcOnly.status, oidcOnly.body]).toEqual([
        400,
        refused('SSO_CONNECTION_INVALID', expect.stringMatching(/OIDC/)),
      ]);
    });

    it.each([
      ['not XML', () => 'not xml <', /not well-formed XML/],
      ['a DTD', () => `<!DOCTYPE x [<!ENTITY e "e">]>${okta.metadata()}`, /DTD/],
      ['no certificate', () => okta.metadata([]), /no signing certificate/],
      [
        'no SSO URL of either binding',
        () => okta.metadata().replace(/<md:SingleSignOnService [^>]*>/g, ''),
        /HTTP-Redirect or HTTP-POST/,
      ],
      [
        'not an identity provider’s',
        () => okta.metadata().replace(/IDPSSODescriptor/g, 'SPSSODescriptor'),
        /IDPSSODescriptor/,
      ],
    ])('422 SSO_METADATA_INVALID: %s, and nothing stored', async (_, metadata, reason) => {
      const res = await create({ metadataXml: metadata() });
      expect([res.status, res.body]).toEqual([422, refused('SSO_METADATA_INVALID', expect.stringMatching(reason))]);
      expect(await connections().countBy({ tenantId: org.tenant.id })).toBe(0);
    });

    it('422 SSO_METADATA_INVALID: only expired certificates; an address that does not answer', async () => {
      const old = await signingKey(new Date(Date.now() - 400 * 86_400_000), new Date(Date.now() - 86_400_000));
      const expired = await create({ metadataXml: okta.metadata([old.cert]) });
      expect([expired.status, expired.body]).toEqual([
        422,
        refused('SSO_METADATA_INVALID', expect.stringMatching(/every signing certificate has expired/)),
      ]);
      const closed = await create({ metadataXml: undefined, metadataUrl: 'http://127.0.0.1:1/metadata' });
      expect([closed.status, closed.body]).toEqual([
        422,
        refused('SSO_METADATA_INVALID', expect.stringContaining('unreachable')),
      ]);
      expect(await connections().countBy({ tenantId: org.tenant.id })).toBe(0);
    });

    it('400 SSO_CONNECTION_INVALID: no metadata, or both kinds', async () => {
      for (const body of [{ metadataXml: undefined }, { metadataUrl: metadataServer.url }]) {
        const res = await create(body);
        expect([res.status, res.body]).toEqual([
          400,
          refused('SSO_CONNECTION_INVALID', expect.stringMatching(/metadata/)),
        ]);
      }
    });
  });

  describe('sso.certificate_expiring, checked daily', () => {
    it('a connection whose last certificate expires within 30 days is warned of once, whichever instance checks', async () => {
      const soon = await signingKey(new Date(Date.now() - 86_400_000), new Date(Date.now() + 10 * 86_400_000));
      const { id } = (await create({ metadataXml: okta.metadata([soon.cert]) })).body.connection;
      const later = (await create({ metadataXml: okta.metadata([okta.key.cert]) })).body.connection.id;
      const warnings = t.app.get(CertificateExpiryWarnings);
      await warnings.check();
      const warned = (await events('sso.certificate_expiring')).map((event) => [
        event.targetId,
        JSON.parse(event.data),
      ]);
      expect(warned).toEqual([
        [
          id,
          expect.objectContaining({
            type: 'saml',
            daysLeft: 9,
            notAfter: expect.any(String),
            fingerprint: expect.any(String),
          }),
        ],
      ]);
      expect(warned.some(([target]) => target === later)).toBe(false);
      expect(await warnings.check()).toBe(0);
      expect(await events('sso.certificate_expiring')).toHaveLength(1);
    });
  });

  describe('GET /sso/saml/{id}/metadata', () => {
    it('the SP metadata: this connection’s entity ID, its ACS (HTTP-POST), NameID e-mail, assertions signed', async () => {
      const { id } = (await create()).body.connection;
      const res = await t.http.get(`/sso/saml/${id}/metadata`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
      const xml = res.text;
      expect(xml).toContain(`entityID="${endpoints(id).entityId}"`);
      expect(xml).toMatch(/WantAssertionsSigned="true"/);
      expect(xml).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
      expect(xml).toMatch(
        new RegExp(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${endpoints(id).acsUrl}"`),
      );
      const unknown = await t.http.get(`/sso/saml/${randomUUID()}/metadata`);
      expect([unknown.status, unknown.body]).toEqual([404, refused('SSO_NOT_FOUND')]);
    });
  });

  describe('GET /sso/start (SAML)', () => {
    it('302 to the IdP’s SSO URL with an AuthnRequest over HTTP-Redirect; its ID stored as the pending request', async () => {
      const { id, acsUrl, entityId } = await activeConnection();
      const res = await t.http.get('/sso/start').query({ connection: id, returnTo: '/after' });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.location);
      expect(location.origin + location.pathname).toBe(okta.ssoUrl);
      const request = TestSamlIdp.authnRequest(res.headers.location);
      expect(request.xml).toContain(`AssertionConsumerServiceURL="${acsUrl}"`);
      expect(request.xml).toContain(`Destination="${okta.ssoUrl}"`);
      expect(request.xml).toContain(`>${entityId}</saml:Issuer>`);
      expect(request.relayState).toBe(request.id);
      const stored = await t.dataSource.getRepository(SsoRequestEntity).findOneByOrFail({ state: request.id });
      expect(stored).toMatchObject({ connectionId: id, returnTo: '/after', usedAt: null, purpose: 'sign_in' });
    });
  });

  describe('GET /sso/saml/{id}/requests/{requestId}: a provider that takes HTTP-POST only', () => {
    it('the start leads to a page that posts the AuthnRequest (its ID the pending request’s); answered, it signs in; then 404', async () => {
      const postOnly = okta.metadata().replace(/<md:SingleSignOnService [^>]*HTTP-Redirect"[^>]*>/, '');
      const { id, domain, acsUrl, entityId } = await activeConnection({ metadataXml: postOnly });
      const started = await t.http.get('/sso/start').query({ connection: id });
      expect(started.status).toBe(302);
      const pagePath = new URL(started.headers.location).pathname;
      expect(pagePath).toMatch(new RegExp(`^/sso/saml/${id}/requests/_[0-9a-f]{40}$`));
      const page = await t.http.get(pagePath);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toMatch(
        new RegExp(`script-src 'nonce-[^']+'; form-action ${new URL(okta.ssoUrl).origin}`),
      );
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain(`<form method="post" action="${okta.ssoUrl}">`);
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.text)![1];
      const request = Buffer.from(field('SAMLRequest'), 'base64').toString('utf8');
      const requestId = /\sID="([^"]+)"/.exec(request)![1];
      expect(pagePath.endsWith(`/${requestId}`)).toBe(true);
      expect(request).toContain(`AssertionConsumerServiceURL="${acsUrl}"`);
      expect(field('RelayState')).toBe(requestId);
      const email = `post-${Date.now()}@${domain}`;
      const res = await post(id, okta.response({ acsUrl, audience: entityId, email, inResponseTo: requestId }));
      expect(res.status).toBe(302);
      expect((await t.identity.findByEmail(email))[0]).toMatchObject({ tenantId: org.tenant.id });
      const used = await t.http.get(pagePath);
      expect([used.status, used.body]).toEqual([404, refused('SSO_NOT_FOUND')]);
    });
  });

  describe('POST /sso/saml/{id}/acs', () => {
    it('Okta-shaped: a person in no organisation joins (jit), 302 to returnTo with the session cookie (amr sso); the assertion remembered', async () => {
      const { id, domain } = await activeConnection();
      const email = `okta-${Date.now()}@${domain}`;
      const res = await signIn(id, email, {}, okta, `${PORTAL}/home`);
      expect([res.status, res.headers.location]).toEqual([302, `${PORTAL}/home`]);
      const [cookie] = res.headers['set-cookie'] as unknown as string[];
      expect(cookie).toMatch(/^id_token=[^;]+; Path=\/; Max-Age=28800; HttpOnly; SameSite=Lax$/);
      const [user] = await t.identity.findByEmail(email);
      expect(user).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
      expect(decode(cookieOf(res).slice('id_token='.length))).toMatchObject({
        sub: user.id,
        email,
        amr: ['sso'],
        sso_connection: id,
        'custom:tenant_id': org.tenant.id,
      });
      expect((await t.http.get('/api/me').set('Cookie', cookieOf(res))).body.organisation).toMatchObject({
        id: org.tenant.id,
      });
      expect(
        await t.dataSource.getRepository(SsoIdentityEntity).findOneBy({ connectionId: id, subject: email }),
      ).toMatchObject({
        userId: user.id,
      });
      expect(await t.dataSource.getRepository(SsoAssertionEntity).countBy({ connectionId: id })).toBe(1);
      const joined = (await events('member.joined')).map((event) => JSON.parse(event.data));
      expect(joined).toContainEqual({ role: 'member', via: 'sso', connection: id });
      expect(await attempts(id)).toMatchObject([{ result: 'ok', email, subject: email, detail: 'signed in' }]);
    });

    it('Entra-shaped: groups map roles; a returning person is found by subject after an e-mail change', async () => {
      const { id, domain } = await activeConnection({}, entra);
      await mapGroupsToRoles(t, org.ownerCookie);
      const email = `entra-${Date.now()}@${domain}`;
      const subject = `entra-${email}`;
      const res = await signIn(id, email, { groups: ['Engineering', 'Hiring'] }, entra);
      expect(res.status).toBe(302);
      const [user] = await t.identity.findByEmail(email);
      expect(user).toMatchObject({ tenantId: org.tenant.id, role: 'admin' });
      const held = await t.dataSource
        .getRepository(MemberRoleEntity)
        .findBy({ tenantId: org.tenant.id, userId: user.id });
      expect(held.map((row) => row.roleKey)).toEqual(['recruiter']);
      // The same persistent NameID, another address at the domain: the same account, which takes it.
      const renamed = `renamed-${email}`;
      const again = await signIn(
        id,
        renamed,
        {
          nameIdXml: `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${subject}</saml:NameID>`,
        },
        entra,
      );
      expect(again.status).toBe(302);
      expect(decode(cookieOf(again).slice('id_token='.length))).toMatchObject({ sub: user.id, email: renamed });
      expect(await t.identity.findById(user.id)).toMatchObject({ email: renamed, role: 'admin' });
      expect(
        await t.dataSource.getRepository(SsoIdentityEntity).findOneBy({ connectionId: id, subject }),
      ).toMatchObject({
        userId: user.id,
        email: renamed,
      });
    });

    it('a test sign-in activates a draft: 200 with what a sign-in would do; nobody joined, no session', async () => {
      const domain = await verified();
      const { id } = (await create()).body.connection;
      const { user } = await person(domain);
      const started = await t.http.post(`/api/org/sso/connections/${id}/test`).set('Cookie', org.ownerCookie);
      expect(started.status).toBe(200);
      const request = TestSamlIdp.authnRequest(started.body.startUrl);
      const res = await post(
        id,
        okta.response({
          ...endpoints(id),
          audience: endpoints(id).entityId,
          email: user.email,
          inResponseTo: request.id,
        }),
      );
      expect([res.status, res.body]).toEqual([
        200,
        {
          success: true,
          test: {
            result: 'ok',
            email: user.email,
            subject: user.email,
            membership: 'joins',
            role: 'member',
            roles: [],
            activated: true,
          },
        },
      ]);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: null });
      expect(await connections().findOneByOrFail({ id })).toMatchObject({ status: 'active' });
    });

    it('enforcement: a member’s SAML session passes the org routes; their session made otherwise is 403 SSO_REQUIRED; the owner keeps access', async () => {
      const { id, domain } = await activeConnection();
      const member = await factory.member(org.tenant.id, { role: 'member', email: `mo@${domain}` });
      const sso = await signIn(id, member.email);
      expect(sso.status).toBe(302);
      expect((await t.http.patch('/api/org/sso').set('Cookie', org.ownerCookie).send({ enforced: true })).status).toBe(
        200,
      );
      expect((await t.http.get('/api/org/members').set('Cookie', cookieOf(sso))).status).toBe(200);
      const { sessionCookie } = await import('./support/factories');
      const other = await t.http.get('/api/org/members').set('Cookie', await sessionCookie(t, member));
      expect([other.status, other.body.error]).toEqual([403, 'SSO_REQUIRED']);
      expect((await t.http.get('/api/org/members').set('Cookie', org.ownerCookie)).status).toBe(200);
    });

    describe('refusals: 400 SSO_ASSERTION_INVALID with the check, an attempt, no cookie, nobody joined', () => {
      const forged: [
        string,
        (ctx: { id: string; email: string; otherId: string }) => Partial<ResponseOptions>,
        RegExp,
      ][] = [
        ['an unsigned response', () => ({ sign: 'none' }), /^no signature$/],
        [
          'a signed response around an unsigned assertion',
          () => ({ sign: 'response' }),
          /^the response is signed but the assertion is not \(wantAssertionsSigned\)$/,
        ],
        [
          'a signature by a key that is not the connection’s (its certificate in KeyInfo)',
          () => ({ sign: 'both', key: foreignKey }),
          /^signed by a key that is not one of the connection's certificates \(fingerprint [0-9A-F:]{95}\)$/,
        ],
        ['SHA-1', () => ({ sign: 'both', algorithm: 'sha1' }), /algorithm refused/],
        ['a DTD', () => ({ sign: 'both', prolog: '<!DOCTYPE samlp:Response [<!ENTITY e "x">]>' }), /DTD/],
        ['a wrong audience', () => ({ sign: 'both', audience: 'https://evil.example/sp' }), /^Audience mismatch/],
        [
          'a prefixed audience',
          ({ id }) => ({ sign: 'both', audience: `${endpoints(id).entityId}x` }),
          /^Audience mismatch/,
        ],
        ['a missing audience', () => ({ sign: 'both', audience: '' }), /^Audience mismatch: .* got none$/],
        [
          'a wrong Destination',
          () => ({ sign: 'both', destination: 'https://evil.example/acs' }),
          /Destination mismatch/,
        ],
        ['a missing Destination', () => ({ sign: 'both', destination: null }), /Destination missing/],
        [
          'another connection’s ACS',
          ({ otherId }) => ({ sign: 'both', ...endpoints(otherId), audience: endpoints(otherId).entityId }),
          /Destination mismatch/,
        ],
        [
          'another connection’s Recipient',
          ({ otherId }) => ({ sign: 'both', recipient: endpoints(otherId).acsUrl }),
          /Recipient mismatch/,
        ],
        ['a wrong Issuer', () => ({ sign: 'both', issuer: 'http://www.okta.com/other' }), /^Response Issuer mismatch/],
        [
          'expired beyond the skew',
          () => ({
            sign: 'both',
            notBefore: new Date(Date.now() - 3_600_000),
            notOnOrAfter: new Date(Date.now() - 600_000),
          }),
          /^expired at /,
        ],
        [
          'not yet valid beyond the skew',
          () => ({
            sign: 'both',
            notBefore: new Date(Date.now() + 600_000),
            notOnOrAfter: new Date(Date.now() + 900_000),
          }),
          /^not valid before /,
        ],
        [
          'an unknown InResponseTo',
          () => ({ sign: 'both', inResponseTo: '_unknown' }),
          /InResponseTo _unknown is unknown/,
        ],
        [
          'an unsolicited response, IdP-initiated sign-ins off',
          () => ({ sign: 'both', inResponseTo: null }),
          /unsolicited/,
        ],
      ];
      let foreignKey: Awaited<ReturnType<typeof signingKey>>;
      beforeAll(async () => {
        foreignKey = await signingKey();
      });

      it.each(forged)('%s', async (_, options, reason) => {
        const { id, domain } = await activeConnection();
        const otherId = (await create()).body.connection.id;
        const email = `forged-${Date.now()}@${domain}`;
        const res = await signIn(id, email, options({ id, email, otherId }));
        await expectRefused(res, id, 400, 'SSO_ASSERTION_INVALID', expect.stringMatching(reason));
        expect(await t.identity.findByEmail(email)).toEqual([]);
        expect(await t.dataSource.getRepository(SsoIdentityEntity).countBy({ connectionId: id })).toBe(0);
      });

      it('a reused InResponseTo (a new assertion for a request already answered)', async () => {
        const { id, domain } = await activeConnection();
        const request = await start(id);
        const base = {
          ...endpoints(id),
          audience: endpoints(id).entityId,
          email: `re@${domain}`,
          inResponseTo: request.id,
        };
        expect((await post(id, okta.response(base))).status).toBe(302);
        const res = await post(id, okta.response(base));
        await expectRefused(res, id, 400, 'SSO_ASSERTION_INVALID', `InResponseTo ${request.id} already used`);
      });

      it('a replay: 409 SSO_REPLAYED', async () => {
        const { id, domain } = await activeConnection();
        const request = await start(id);
        const response = okta.response({
          ...endpoints(id),
          audience: endpoints(id).entityId,
          email: `rp@${domain}`,
          inResponseTo: request.id,
        });
        expect((await post(id, response)).status).toBe(302);
        await expectRefused(await post(id, response), id, 409, 'SSO_REPLAYED');
      });

      it('an e-mail in another organisation’s domain: 403 SSO_DOMAIN_MISMATCH', async () => {
        const { id } = await activeConnection();
        const other = await newInviter(t);
        const otherDomain = `other-${Date.now()}.test`;
        await heldDomain(t, other.tenant.id, otherDomain);
        const res = await signIn(id, `kim@${otherDomain}`);
        await expectRefused(res, id, 403, 'SSO_DOMAIN_MISMATCH');
      });

      it('a person SCIM deactivated: 403 REMOVED_BY_ORGANISATION (a sign-in never brings back whom SCIM took out)', async () => {
        const { id, domain } = await activeConnection();
        const scim = scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);
        const email = `scim-${Date.now()}@${domain}`;
        const created = await scim.post('/Users', oktaUser(email));
        expect(created.status).toBe(201);
        const deactivated = await scim.patch(`/Users/${created.body.id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', value: { active: false } }],
        });
        expect([deactivated.status, deactivated.body.active]).toEqual([200, false]);
        await expectRefused(await signIn(id, email), id, 403, 'REMOVED_BY_ORGANISATION');
        const [user] = await t.identity.findByEmail(email);
        expect(user).toMatchObject({ tenantId: null });
      });
    });

    describe('IdP-initiated (allowIdpInitiated true)', () => {
      it('an unsolicited response signs in and returns to its RelayState by the returnTo rule; a foreign one is 400 SSO_RETURN_REFUSED', async () => {
        const { id, domain } = await activeConnection({ allowIdpInitiated: true });
        const member = await factory.member(org.tenant.id, { role: 'member', email: `idp@${domain}` });
        const unsolicited = () =>
          okta.response({
            ...endpoints(id),
            audience: endpoints(id).entityId,
            email: member.email,
            inResponseTo: null,
          });
        const res = await post(id, unsolicited(), `${PORTAL}/from-idp`);
        expect([res.status, res.headers.location]).toEqual([302, `${PORTAL}/from-idp`]);
        await expectRefused(await post(id, unsolicited(), '//evil.example'), id, 400, 'SSO_RETURN_REFUSED');
      });
    });
  });
});

/** The assertion cache is the fleet's: a replay on another instance, and two copies at once, are refused. */
describe('single sign-on: SAML replays across instances', () => {
  const fleet = useTwoInstances(() => ({ env: { PUBLIC_BASE_URL: BASE } }));
  let okta: TestSamlIdp;
  beforeAll(async () => {
    okta = await TestSamlIdp.create('okta');
  });

  it('a replay on the second instance: 409 SSO_REPLAYED; of two copies at once, one signs in', async () => {
    const { first, second } = fleet;
    const owner = await newInviter(first);
    await first.dataSource.getRepository(TenantEntity).update({ id: owner.tenant.id }, { status: 'active' });
    const domain = `fleet-${Date.now()}.test`;
    await heldDomain(first, owner.tenant.id, domain);
    const created = await first.http
      .post('/api/org/sso/connections')
      .set('Cookie', owner.cookie)
      .send({ type: 'saml', metadataXml: okta.metadata(), allowIdpInitiated: true });
    const { id } = created.body.connection;
    await first.http.patch(`/api/org/sso/connections/${id}`).set('Cookie', owner.cookie).send({ status: 'active' });
    const response = (email: string) =>
      okta.response({ ...endpoints(id), audience: endpoints(id).entityId, email, inResponseTo: null });
    const acs = (app: typeof first, samlResponse: string) =>
      app.http.post(`/sso/saml/${id}/acs`).type('form').send({ SAMLResponse: samlResponse });
    const once = response(`one@${domain}`);
    expect((await acs(first, once)).status).toBe(302);
    const replay = await acs(second, once);
    expect([replay.status, replay.body]).toEqual([409, refused('SSO_REPLAYED')]);
    const copy = response(`two@${domain}`);
    const both = await Promise.all([acs(first, copy), acs(second, copy)]);
    expect(both.map((res) => res.status).sort()).toEqual([302, 409]);
    expect(await first.identity.findByEmail(`two@${domain}`)).toMatchObject([{ tenantId: owner.tenant.id }]);
  });
});

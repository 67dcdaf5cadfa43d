import { sign } from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import {
  MemberRoleEntity,
  SsoConnectionEntity,
  SsoEnforcementEntity,
  SsoIdentityEntity,
  SsoRequestEntity,
} from '../src/database/entities';
import { refused as domainRefused } from './support/domains';
import { claimsOf, mapGroupsToRoles, SSO_BASE, SSO_PORTAL, ssoRefused, useOidcSuite } from './support/sso';
import { sessionCookie } from './support/factories';
import { PROVIDER_HOOK_TIMEOUT_MS, TestOidcProvider } from './support/oidc-provider';
import { useOrganisationSuite, useTestApp } from './support/suites';
import { TEST_JWT_SECRET } from './support/test-app';
import { describeCognitoOnly } from './support/test-identity';
import { cognitoIssuer } from '../src/identity/cognito/cognito-endpoints';
import { JoiningService } from '../src/joining/joining.service';
import { invalidRequest } from './support/documented-http';

const BASE = SSO_BASE;
const PORTAL = SSO_PORTAL;
const refused = ssoRefused;
const decode = claimsOf;

/**
 * Single sign-on by OpenID Connect (docs/sso.md), against oidc-provider on the loopback: connections,
 * discovery, the start, a full sign-in, and the forged and stale callbacks.
 */
describe('single sign-on: OIDC', () => {
  const provider = new TestOidcProvider();
  beforeAll(() => provider.start(), PROVIDER_HOOK_TIMEOUT_MS);
  afterAll(() => provider.stop());
  const {
    t,
    factory,
    org,
    verified,
    person,
    attempts,
    events,
    expectRefused,
    connections,
    create,
    patch,
    activeConnection,
    callbackFor,
    callback,
    signIn,
  } = useOidcSuite(provider, { SSO_CONNECTIONS_PER_ORG: '2' });

  describe('POST /api/org/sso/connections', () => {
    it('an owner connects the provider: 201, a draft with the redirect URI; the secret never returned, stored sealed', async () => {
      const res = await create({ name: 'Okta', scopes: ['openid', 'email'] });
      expect(res.status).toBe(201);
      const { id } = res.body.connection;
      expect(res.body).toEqual({
        success: true,
        connection: {
          id,
          type: 'oidc',
          name: 'Okta',
          status: 'draft',
          jit: true,
          defaultRole: 'member',
          allowIdpInitiated: false,
          primary: false,
          createdAt: expect.any(String),
          oidc: {
            issuer: provider.issuer,
            clientId: provider.clientId,
            scopes: ['openid', 'email'],
            tokenEndpointAuthMethod: 'client_secret_basic',
          },
          sp: { redirectUri: `${BASE}/sso/oidc/${id}/callback` },
          lastLogin: null,
        },
      });
      const row = await connections().findOneByOrFail({ id });
      expect(row.clientSecret).toMatch(/^v1\./);
      expect(row.clientSecret).not.toContain(provider.clientSecret);
      expect(JSON.parse(row.discovery)).toMatchObject({
        issuer: provider.issuer,
        token_endpoint: `${provider.issuer}/token`,
      });
      expect(await events('sso.connection_created')).toHaveLength(1);
    });

    it('owners only: an admin and a member are answered 403 {"error":"Forbidden"}, and nothing is stored', async () => {
      for (const role of ['admin', 'member']) {
        const cookie = await sessionCookie(t, await factory.member(org.tenant.id, { role }));
        const res = await create({}, cookie);
        expect([res.status, res.body]).toEqual([403, { error: 'Forbidden' }]);
        expect((await t.http.get('/api/org/sso/connections').set('Cookie', cookie)).status).toBe(403);
      }
      expect(await connections().countBy({ tenantId: org.tenant.id })).toBe(0);
    });

    it('no session: 401', async () => {
      expect((await t.http.get('/api/org/sso/connections')).status).toBe(401);
    });

    it.each([
      ['an unknown type', { type: 'ldap' }, /type must be "oidc" or "saml"/],
      ['no client secret', { clientSecret: undefined }, /clientSecret/],
      ['an owner default role', { defaultRole: 'owner' }, /never owner/],
      ['scopes without openid', { scopes: ['email'] }, /openid/],
      ['an issuer that is not a URL', { issuer: 'acme' }, /issuer/],
    ])('400 SSO_CONNECTION_INVALID: %s', async (_, body, reason) => {
      const res = await invalidRequest(() => create(body));
      expect([res.status, res.body]).toEqual([400, refused('SSO_CONNECTION_INVALID', expect.stringMatching(reason))]);
      expect(await connections().countBy({ tenantId: org.tenant.id })).toBe(0);
    });

    it('422 SSO_DISCOVERY_FAILED: an issuer that differs from the document’s (compared exactly), or unreachable', async () => {
      const slash = await create({ issuer: `${provider.issuer}/` });
      expect([slash.status, slash.body]).toEqual([
        422,
        refused(
          'SSO_DISCOVERY_FAILED',
          `issuer mismatch: expected ${provider.issuer}/, the document says "${provider.issuer}"`,
        ),
      ]);
      const closed = await create({ issuer: 'http://127.0.0.1:1' });
      expect([closed.status, closed.body]).toEqual([
        422,
        refused('SSO_DISCOVERY_FAILED', expect.stringContaining('http://127.0.0.1:1 unreachable')),
      ]);
      expect(await connections().countBy({ tenantId: org.tenant.id })).toBe(0);
    });

    it('422 SSO_CONNECTION_LIMIT past SSO_CONNECTIONS_PER_ORG (2 here)', async () => {
      expect((await create()).status).toBe(201);
      expect((await create()).status).toBe(201);
      const res = await create();
      expect([res.status, res.body]).toEqual([422, refused('SSO_CONNECTION_LIMIT')]);
      expect(await connections().countBy({ tenantId: org.tenant.id })).toBe(2);
    });
  });

  describe('GET, PATCH, DELETE /api/org/sso/connections/{id}, POST …/refresh', () => {
    it('lists and reads the organisation’s own; another organisation’s is 404 SSO_NOT_FOUND', async () => {
      const { id } = (await create()).body.connection;
      const list = await t.http.get('/api/org/sso/connections').set('Cookie', org.ownerCookie);
      expect(list.body.connections.map((c: { id: string }) => c.id)).toEqual([id]);
      const one = await t.http.get(`/api/org/sso/connections/${id}`).set('Cookie', org.ownerCookie);
      expect(one.body.connection.id).toBe(id);
      const other = await factory.tenant({ status: 'active' });
      const otherCookie = await sessionCookie(t, await factory.member(other.id));
      const res = await t.http.get(`/api/org/sso/connections/${id}`).set('Cookie', otherCookie);
      expect([res.status, res.body]).toEqual([404, refused('SSO_NOT_FOUND')]);
    });

    it('PATCH {"status":"active"}: active, and the first to become active is the primary; sso.connection_activated', async () => {
      const first = (await create()).body.connection.id;
      const second = (await create()).body.connection.id;
      expect((await patch(first, { status: 'active' })).body.connection).toMatchObject({
        status: 'active',
        primary: true,
      });
      const res = await patch(second, { status: 'active', name: 'Second', jit: false });
      expect(res.body.connection).toMatchObject({ status: 'active', primary: false, name: 'Second', jit: false });
      expect(await events('sso.connection_activated')).toHaveLength(2);
      // The primary turned off: the next one active is the primary.
      await patch(first, { status: 'inactive' });
      expect(
        (await t.http.get(`/api/org/sso/connections/${second}`).set('Cookie', org.ownerCookie)).body.connection.primary,
      ).toBe(true);
      expect((await invalidRequest(() => patch(second, { status: 'draft' }))).status).toBe(400);
      expect((await invalidRequest(() => patch(second, { defaultRole: 'owner' }))).body).toEqual(
        refused('SSO_CONNECTION_INVALID'),
      );
    });

    it('PATCH {"primary": true}: that active connection is the primary, and discovery uses it; a draft cannot be', async () => {
      const domain = await verified();
      const first = (await create()).body.connection.id;
      const second = (await create()).body.connection.id;
      const draft = await patch(second, { primary: true });
      expect([draft.status, draft.body]).toEqual([
        400,
        refused('SSO_CONNECTION_INVALID', 'only an active connection can be primary'),
      ]);
      expect((await invalidRequest(() => patch(second, { primary: false }))).body).toEqual(
        refused('SSO_CONNECTION_INVALID'),
      );
      await patch(first, { status: 'active' });
      const res = await patch(second, { status: 'active', primary: true });
      expect(res.body.connection).toMatchObject({ status: 'active', primary: true });
      const one = await t.http.get(`/api/org/sso/connections/${first}`).set('Cookie', org.ownerCookie);
      expect(one.body.connection.primary).toBe(false);
      const found = await t.http.post('/api/sso/discover').send({ email: `ann@${domain}` });
      expect(found.body.connection).toEqual({ id: second, type: 'oidc' });
      const [updated] = (await events('sso.connection_updated')).map((event) => JSON.parse(event.data));
      expect(updated.changed).toEqual(['status', 'primary']);
      // The primary turned off: the first again.
      await patch(second, { status: 'inactive' });
      expect((await t.http.post('/api/sso/discover').send({ email: `ann@${domain}` })).body.connection.id).toBe(first);
    });

    it('DELETE: 204, the row gone, sso.connection_deleted; then 404', async () => {
      const { id } = (await create()).body.connection;
      const res = await t.http.delete(`/api/org/sso/connections/${id}`).set('Cookie', org.ownerCookie);
      expect(res.status).toBe(204);
      expect(await connections().findOneBy({ id })).toBeNull();
      expect(await events('sso.connection_deleted')).toHaveLength(1);
      expect((await t.http.delete(`/api/org/sso/connections/${id}`).set('Cookie', org.ownerCookie)).status).toBe(404);
    });

    it('POST …/refresh reads the discovery document again', async () => {
      const { id } = (await create()).body.connection;
      await connections().update({ id }, { discovery: '{}' });
      const res = await t.http.post(`/api/org/sso/connections/${id}/refresh`).set('Cookie', org.ownerCookie);
      expect(res.status).toBe(200);
      expect(JSON.parse((await connections().findOneByOrFail({ id })).discovery).issuer).toBe(provider.issuer);
    });
  });

  describe('POST /api/org/sso/connections/{id}/test', () => {
    const testStart = (id: string, cookie = org.ownerCookie) =>
      t.http.post(`/api/org/sso/connections/${id}/test`).set('Cookie', cookie);
    /** The owner's browser: the test's start at the provider, then back to the callback. */
    const testSignIn = async (id: string, who: { sub: string; email: string }) => {
      const started = await testStart(id);
      expect([started.status, Object.keys(started.body)]).toEqual([200, ['startUrl']]);
      await provider.nextLogin(who);
      return callback(await provider.authorize(started.body.startUrl));
    };

    it('a draft’s test sign-in runs every check: 200 with what a sign-in would do, the draft active; nobody joined, no session', async () => {
      const domain = await verified();
      const { id } = (await create()).body.connection;
      const { user } = await person(domain);
      const res = await testSignIn(id, { sub: 'tester', email: user.email });
      expect([res.status, res.body]).toEqual([
        200,
        {
          success: true,
          test: {
            result: 'ok',
            email: user.email,
            subject: 'tester',
            membership: 'joins',
            role: 'member',
            roles: [],
            activated: true,
          },
        },
      ]);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: null });
      expect(await t.dataSource.getRepository(SsoIdentityEntity).countBy({ connectionId: id })).toBe(0);
      expect(await connections().findOneByOrFail({ id })).toMatchObject({ status: 'active' });
      expect(await events('sso.connection_activated')).toHaveLength(1);
      expect(await events('member.joined')).toHaveLength(0);
      expect(await events('sso.login_succeeded')).toHaveLength(0);
      const [attempt] = await attempts(id);
      expect(attempt).toMatchObject({
        result: 'ok',
        email: user.email,
        subject: 'tester',
        detail: `test sign-in: every check passed; ${user.email} would join with role member`,
      });
    });

    it('a member’s test on an active connection: membership member with their role; nothing activated', async () => {
      const { id, domain } = await activeConnection();
      const member = await factory.member(org.tenant.id, { role: 'admin', email: `tess@${domain}` });
      const res = await testSignIn(id, { sub: 'tess', email: member.email });
      expect(res.body.test).toMatchObject({ membership: 'member', role: 'admin', roles: [], activated: false });
      expect(await events('sso.connection_activated')).toHaveLength(1);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('a failed check is answered as a sign-in’s refusal, recorded as a test’s; the draft stays a draft', async () => {
      await verified();
      const { id } = (await create()).body.connection;
      const res = await testSignIn(id, { sub: 'outsider', email: 'eve@elsewhere.example' });
      expect([res.status, res.body]).toEqual([403, refused('SSO_DOMAIN_MISMATCH')]);
      expect(res.headers['set-cookie']).toBeUndefined();
      const [attempt] = await attempts(id);
      expect(attempt).toMatchObject({ result: 'SSO_DOMAIN_MISMATCH', detail: `test sign-in: ${res.body.reason}` });
      const [failed] = await events('sso.login_failed');
      expect(JSON.parse(failed.data)).toMatchObject({ reason: 'SSO_DOMAIN_MISMATCH', test: true });
      expect(await connections().findOneByOrFail({ id })).toMatchObject({ status: 'draft', activatedAt: null });
    });

    it('owners only (an admin: 403 Forbidden); a draft answers no callback but its test’s: 404 SSO_NOT_FOUND, no attempt', async () => {
      const { id } = (await create()).body.connection;
      const admin = await sessionCookie(t, await factory.member(org.tenant.id, { role: 'admin' }));
      const res = await testStart(id, admin);
      expect([res.status, res.body]).toEqual([403, { error: 'Forbidden' }]);
      const forged = await t.http.get(`/sso/oidc/${id}/callback`).query({ code: 'x', state: 'not-a-test' });
      expect([forged.status, forged.body]).toEqual([404, refused('SSO_NOT_FOUND')]);
      expect(await attempts(id)).toEqual([]);
      expect((await testStart(randomUUID())).status).toBe(404);
    });
  });

  describe('GET and PATCH /api/org/sso: enforcement', () => {
    const enforce = (enforced: unknown, cookie = org.ownerCookie) =>
      t.http.patch('/api/org/sso').set('Cookie', cookie).send({ enforced });
    const enforcementRows = () => t.dataSource.getRepository(SsoEnforcementEntity).countBy({ tenantId: org.tenant.id });
    /** A session that single sign-on made for `email`, through the provider. */
    const ssoCookie = async (id: string, sub: string, email: string) => {
      const res = await signIn(id, { sub, email });
      expect(res.status).toBe(302);
      return (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    };

    it('without an active connection: 409 SSO_NO_ACTIVE_CONNECTION; an admin 403 Forbidden; a bad body 400; nothing stored', async () => {
      await create();
      const res = await enforce(true);
      expect([res.status, res.body]).toEqual([409, refused('SSO_NO_ACTIVE_CONNECTION')]);
      const admin = await sessionCookie(t, await factory.member(org.tenant.id, { role: 'admin' }));
      expect((await enforce(true, admin)).body).toEqual({ error: 'Forbidden' });
      expect((await invalidRequest(() => enforce('yes'))).body).toEqual(refused('SSO_ENFORCEMENT_INVALID'));
      expect(await enforcementRows()).toBe(0);
      const read = await t.http.get('/api/org/sso').set('Cookie', admin);
      expect([read.status, read.body]).toEqual([
        200,
        {
          enforced: false,
          connections: 1,
          activeConnections: 0,
          breakGlass: ['owner'],
          serviceAddress: { baseUrl: BASE, from: 'PUBLIC_BASE_URL' },
        },
      ]);
    });

    it('enforced: a session made otherwise is 403 SSO_REQUIRED with the startUrl on every org route, but an owner’s; single sign-on’s sessions pass; off again, all pass', async () => {
      const { id, domain } = await activeConnection();
      const admin = await factory.member(org.tenant.id, { role: 'admin', email: `ada@${domain}` });
      const member = await factory.member(org.tenant.id, { role: 'member', email: `mo@${domain}` });
      const adminSso = await ssoCookie(id, 'ada', admin.email);
      const memberSso = await ssoCookie(id, 'mo', member.email);
      const res = await enforce(true);
      expect([res.status, res.body]).toEqual([
        200,
        {
          success: true,
          enforced: true,
          connections: 1,
          activeConnections: 1,
          breakGlass: ['owner'],
          serviceAddress: { baseUrl: BASE, from: 'PUBLIC_BASE_URL' },
        },
      ]);
      expect(await enforcementRows()).toBe(1);
      const [event] = await events('sso.enforced');
      expect(JSON.parse(event.data)).toEqual({ enforced: true });
      for (const [person, cookie] of [
        [admin, await sessionCookie(t, admin)],
        [member, await sessionCookie(t, member)],
      ] as const) {
        const refusedRes = await t.http.get('/api/org/members').set('Cookie', cookie);
        expect([refusedRes.status, refusedRes.body]).toEqual([
          403,
          {
            success: false,
            error: 'SSO_REQUIRED',
            startUrl: `${BASE}/sso/start?email=${encodeURIComponent(person.email)}`,
          },
        ]);
      }
      for (const cookie of [org.ownerCookie, adminSso, memberSso])
        expect((await t.http.get('/api/org/members').set('Cookie', cookie)).status).toBe(200);
      expect((await t.http.get('/api/org/sso').set('Cookie', adminSso)).body.enforced).toBe(true);
      expect((await enforce(false)).body.enforced).toBe(false);
      expect(await enforcementRows()).toBe(0);
      expect((await t.http.get('/api/org/members').set('Cookie', await sessionCookie(t, member))).status).toBe(200);
    });

    it('a domain join and a join request of an organisation that requires it: 403 SSO_REQUIRED with the startUrl, nothing joined or filed', async () => {
      const { domain } = await activeConnection();
      await t.http.patch(`/api/org/domains/${domain}`).set('Cookie', org.ownerCookie).send({ joinMode: 'auto' });
      expect((await enforce(true)).status).toBe(200);
      const { user, cookie } = await person(domain);
      const res = await t.http.post(`/api/me/joinable-organisations/${org.tenant.id}/join`).set('Cookie', cookie);
      expect([res.status, res.body]).toEqual([
        403,
        {
          success: false,
          error: 'SSO_REQUIRED',
          startUrl: `${BASE}/sso/start?email=${encodeURIComponent(user.email)}`,
        },
      ]);
      expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: null });
    });
  });

  describe('POST /api/sso/discover', () => {
    it('sso true for a verified domain of an active organisation with an active primary connection', async () => {
      const { id, domain } = await activeConnection();
      const res = await t.http.post('/api/sso/discover').send({ email: `Kim@${domain.toUpperCase()}` });
      expect(res.body).toEqual({
        sso: true,
        organisation: { id: org.tenant.id, name: org.tenant.name },
        connection: { id, type: 'oidc' },
        startUrl: `${BASE}/sso/start?connection=${id}`,
      });
    });

    it('sso false: an unknown domain, a domain whose organisation has only a draft connection', async () => {
      expect((await t.http.post('/api/sso/discover').send({ email: 'kim@unknown.test' })).body).toEqual({ sso: false });
      const domain = await verified();
      await create();
      expect((await t.http.post('/api/sso/discover').send({ email: `kim@${domain}` })).body).toEqual({ sso: false });
    });

    it('400 SSO_EMAIL_INVALID for what is not an address', async () => {
      const res = await t.http.post('/api/sso/discover').send({ email: 'kim' });
      expect([res.status, res.body]).toEqual([400, refused('SSO_EMAIL_INVALID')]);
    });
  });

  describe('GET /sso/start', () => {
    it('302 to the provider: code flow, PKCE S256, state and nonce; the pending request stored for 10 minutes', async () => {
      const { id, domain } = await activeConnection();
      const res = await t.http.get('/sso/start').query({ email: `kim@${domain}`, returnTo: '/dashboard' });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.location);
      expect(location.origin + location.pathname).toBe(`${provider.issuer}/auth`);
      const params = Object.fromEntries(location.searchParams);
      expect(params).toMatchObject({
        response_type: 'code',
        client_id: provider.clientId,
        redirect_uri: `${BASE}/sso/oidc/${id}/callback`,
        code_challenge_method: 'S256',
        scope: 'openid email profile',
        login_hint: `kim@${domain}`,
      });
      const stored = await t.dataSource.getRepository(SsoRequestEntity).findOneByOrFail({ state: params.state });
      expect(stored).toMatchObject({ connectionId: id, nonce: params.nonce, returnTo: '/dashboard', usedAt: null });
      const ttl = stored.expiresAt.getTime() - stored.createdAt.getTime();
      expect(ttl).toBe(10 * 60_000);
      expect(params.code_challenge).not.toBe(stored.codeVerifier);
    });

    it('404 SSO_NOT_FOUND: an unknown connection, a draft one, an e-mail of no organisation', async () => {
      const draft = (await create()).body.connection.id;
      for (const query of [{ connection: randomUUID() }, { connection: draft }, { email: 'kim@nowhere.test' }, {}]) {
        const res = await t.http.get('/sso/start').query(query);
        expect([res.status, res.body]).toEqual([404, refused('SSO_NOT_FOUND')]);
      }
    });

    it.each([
      '//evil.example',
      '/\\evil.example',
      'https:evil.example',
      'javascript:alert(1)',
      'https://evil.example/',
      'https://portal.example.com.evil.example/',
      'https://portal.example.com@evil.example/',
    ])('400 SSO_RETURN_REFUSED for returnTo %s, and no request stored', async (returnTo) => {
      const { id } = await activeConnection();
      const before = await t.dataSource.getRepository(SsoRequestEntity).countBy({ connectionId: id });
      const res = await t.http.get('/sso/start').query({ connection: id, returnTo });
      expect([res.status, res.body]).toEqual([400, refused('SSO_RETURN_REFUSED')]);
      expect(await t.dataSource.getRepository(SsoRequestEntity).countBy({ connectionId: id })).toBe(before);
    });
  });

  describe('GET /sso/oidc/{id}/callback', () => {
    it('a member signs in: 302 to returnTo with the session cookie (amr sso, the connection); an attempt ok', async () => {
      const { id, domain } = await activeConnection();
      const member = await factory.member(org.tenant.id, { role: 'admin', email: `ann@${domain}` });
      const res = await signIn(id, { sub: 'ann-subject', email: `ann@${domain}` }, `${PORTAL}/home`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`${PORTAL}/home`);
      const [cookie] = res.headers['set-cookie'] as unknown as string[];
      expect(cookie).toMatch(/^id_token=[^;]+; Path=\/; Max-Age=28800; HttpOnly; SameSite=Lax$/);
      const token = cookie.split(';')[0].slice('id_token='.length);
      expect(decode(token)).toMatchObject({
        sub: member.id,
        email: member.email,
        amr: ['sso'],
        sso_connection: id,
        'custom:tenant_id': org.tenant.id,
        'custom:role': 'admin',
      });
      const me = await t.http.get('/api/me').set('Cookie', cookie.split(';')[0]);
      expect(me.body.organisation).toMatchObject({ id: org.tenant.id, role: 'admin' });
      expect(
        await t.dataSource.getRepository(SsoIdentityEntity).findOneBy({ connectionId: id, subject: 'ann-subject' }),
      ).toMatchObject({ userId: member.id });
      const [attempt] = await attempts(id);
      expect(attempt).toMatchObject({ result: 'ok', email: `ann@${domain}`, subject: 'ann-subject' });
      const listed = await t.http.get(`/api/org/sso/connections/${id}/attempts`).set('Cookie', org.ownerCookie);
      expect(listed.body.attempts[0]).toEqual({
        at: expect.any(String),
        result: 'ok',
        email: `ann@${domain}`,
        subject: 'ann-subject',
        detail: 'signed in',
      });
      expect((await events('sso.login_succeeded')).length).toBe(1);
      // Later: found by the subject under another address at the domain, which their account takes.
      const again = await signIn(id, { sub: 'ann-subject', email: `ann.renamed@${domain}` });
      // No returnTo: this service's signed-in page (SSO_DEFAULT_RETURN_TO unset).
      expect([again.status, again.headers.location]).toEqual([302, `${BASE}/sso/signed-in`]);
      const [againCookie] = again.headers['set-cookie'] as unknown as string[];
      expect(decode(againCookie.split(';')[0].slice('id_token='.length))).toMatchObject({
        sub: member.id,
        email: `ann.renamed@${domain}`,
      });
      expect(await t.identity.findById(member.id)).toMatchObject({ email: `ann.renamed@${domain}`, role: 'admin' });
      expect(await t.identity.findByEmail(`ann@${domain}`)).toEqual([]);
      expect(
        await t.dataSource.getRepository(SsoIdentityEntity).findOneBy({ connectionId: id, subject: 'ann-subject' }),
      ).toMatchObject({ userId: member.id, email: `ann.renamed@${domain}` });
    });

    it('a returning person whose new address another account holds: 409 EMAIL_IN_USE; both accounts as they were', async () => {
      const { id, domain } = await activeConnection();
      const member = await factory.member(org.tenant.id, { email: `bo@${domain}` });
      expect((await signIn(id, { sub: 'bo-subject', email: member.email })).status).toBe(302);
      const holder = await factory.user({ email: `bo.new@${domain}` });
      const res = await signIn(id, { sub: 'bo-subject', email: holder.email });
      await expectRefused(res, id, 409, 'EMAIL_IN_USE');
      expect(await t.identity.findById(member.id)).toMatchObject({ email: member.email, tenantId: org.tenant.id });
      expect(await t.identity.findById(holder.id)).toMatchObject({ email: holder.email, tenantId: null });
    });

    it('a person in no organisation joins with defaultRole (jit): an account made, member.joined via sso', async () => {
      const { id, domain } = await activeConnection({ defaultRole: 'admin' });
      const email = `new-${Date.now()}@${domain}`;
      const res = await signIn(id, { sub: 'new-subject', email });
      expect(res.status).toBe(302);
      const [user] = await t.identity.findByEmail(email);
      expect(user).toMatchObject({ tenantId: org.tenant.id, role: 'admin', userType: 'org' });
      const joined = (await events('member.joined')).map((event) => JSON.parse(event.data));
      expect(joined).toContainEqual({ role: 'admin', via: 'sso', connection: id });
    });

    it('a jit join that does not commit (lost to another organisation meanwhile): 409 MEMBER_OF_ANOTHER_ORGANISATION, and no account holds the address', async () => {
      const { id, domain } = await activeConnection();
      const email = `raced-${Date.now()}@${domain}`;
      // The join's own judgement, as a parallel way into another organisation would make it.
      jest
        .spyOn(t.app.get(JoiningService), 'joinWithoutInvitation')
        .mockResolvedValueOnce({ joined: false, memberOf: 'another-organisation' });
      const res = await signIn(id, { sub: 'raced-subject', email });
      await expectRefused(res, id, 409, 'MEMBER_OF_ANOTHER_ORGANISATION');
      expect(await t.identity.findByEmail(email)).toEqual([]);
    });

    it('a person in groups that the role mappings map joins with their roles: the highest base role, the custom roles mapped', async () => {
      const { id, domain } = await activeConnection({ scopes: ['openid', 'email', 'groups'], defaultRole: 'member' });
      await mapGroupsToRoles(t, org.ownerCookie);
      const email = `grace@${domain}`;
      await provider.nextLogin({ sub: 'grace', email, groups: [' engineering', 'Hiring', 'Unmapped'] });
      const started = await t.http.get('/sso/start').query({ connection: id });
      const res = await callback(await provider.authorize(started.headers.location));
      expect(res.status).toBe(302);
      const [user] = await t.identity.findByEmail(email);
      expect(user).toMatchObject({ tenantId: org.tenant.id, role: 'admin' });
      const held = await t.dataSource
        .getRepository(MemberRoleEntity)
        .findBy({ tenantId: org.tenant.id, userId: user.id });
      expect(held.map((row) => row.roleKey)).toEqual(['recruiter']);
      const joined = (await events('member.joined')).map((event) => JSON.parse(event.data));
      expect(joined).toContainEqual({ role: 'admin', via: 'sso', connection: id });
      expect(await events('member.roles_changed')).toHaveLength(1);
      // Groups that no mapping names: the connection's default role, no custom role.
      const other = `hal@${domain}`;
      await provider.nextLogin({ sub: 'hal', email: other, groups: ['Unmapped'] });
      const again = await t.http.get('/sso/start').query({ connection: id });
      expect((await callback(await provider.authorize(again.headers.location))).status).toBe(302);
      const [hal] = await t.identity.findByEmail(other);
      expect(hal).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
      expect(await t.dataSource.getRepository(MemberRoleEntity).countBy({ userId: hal.id })).toBe(0);
    });

    it('a person in no organisation, jit false: 403 SSO_NOT_PROVISIONED; no cookie, their account unchanged', async () => {
      const { id, domain } = await activeConnection({ jit: false });
      const { user } = await person(domain);
      const res = await signIn(id, { sub: 'p-subject', email: user.email });
      await expectRefused(res, id, 403, 'SSO_NOT_PROVISIONED');
      expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: null });
    });

    it('a member of another organisation: 409 MEMBER_OF_ANOTHER_ORGANISATION, nothing changed', async () => {
      const { id, domain } = await activeConnection();
      const other = await factory.tenant({ status: 'active' });
      const elsewhere = await factory.member(other.id, { role: 'member', email: `else@${domain}` });
      const res = await signIn(id, { sub: 'else-subject', email: elsewhere.email });
      await expectRefused(res, id, 409, 'MEMBER_OF_ANOTHER_ORGANISATION');
      expect(await t.identity.findById(elsewhere.id)).toMatchObject({ tenantId: other.id });
    });

    it('an e-mail outside the organisation’s verified domains: 403 SSO_DOMAIN_MISMATCH, nobody made', async () => {
      const { id } = await activeConnection();
      const email = `kim-${Date.now()}@elsewhere.test`;
      const res = await signIn(id, { sub: 'kim-subject', email });
      await expectRefused(
        res,
        id,
        403,
        'SSO_DOMAIN_MISMATCH',
        'elsewhere.test is not a verified domain of this organisation',
      );
      expect(await t.identity.findByEmail(email)).toEqual([]);
    });

    it('a person the organisation removed: 403 REMOVED_BY_ORGANISATION, as a domain join refuses them', async () => {
      const { id, domain } = await activeConnection();
      const member = await factory.member(org.tenant.id, { role: 'member', email: `gone@${domain}` });
      const removal = await t.http.delete(`/api/org/users/${member.id}`).set('Cookie', org.ownerCookie);
      expect(removal.status).toBe(200);
      const res = await signIn(id, { sub: 'gone-subject', email: member.email });
      await expectRefused(res, id, 403, 'REMOVED_BY_ORGANISATION');
      expect(domainRefused('REMOVED_BY_ORGANISATION').error).toBe((res.body as { error: string }).error);
      expect(await t.identity.findById(member.id)).toMatchObject({ tenantId: null });
    });

    it('400 SSO_STATE_INVALID: state missing, unknown, and used twice (one session, one refusal)', async () => {
      const { id, domain } = await activeConnection();
      const url = await callbackFor(id, { sub: 's-subject', email: `s@${domain}` });
      const missing = await t.http.get(`/sso/oidc/${id}/callback`).query({ code: url.searchParams.get('code') });
      await expectRefused(missing, id, 400, 'SSO_STATE_INVALID', 'state missing');
      const unknown = await t.http.get(`/sso/oidc/${id}/callback`).query({ code: 'x', state: 'forged' });
      await expectRefused(unknown, id, 400, 'SSO_STATE_INVALID', 'state unknown');
      const first = await callback(url);
      expect(first.status).toBe(302);
      const second = await callback(url);
      await expectRefused(second, id, 400, 'SSO_STATE_INVALID', 'state already used');
    });

    it('400 SSO_TOKEN_INVALID: the nonce stored is not the token’s', async () => {
      const { id, domain } = await activeConnection();
      const url = await callbackFor(id, { sub: 'n-subject', email: `n@${domain}` });
      await t.dataSource
        .getRepository(SsoRequestEntity)
        .update({ state: url.searchParams.get('state')! }, { nonce: 'forged' });
      await expectRefused(
        await callback(url),
        id,
        400,
        'SSO_TOKEN_INVALID',
        expect.stringMatching(/^nonce mismatch: /),
      );
    });

    it('400 SSO_TOKEN_INVALID: a wrong PKCE verifier, refused by the provider', async () => {
      const { id, domain } = await activeConnection();
      const url = await callbackFor(id, { sub: 'v-subject', email: `v@${domain}` });
      await t.dataSource
        .getRepository(SsoRequestEntity)
        .update({ state: url.searchParams.get('state')! }, { codeVerifier: 'f'.repeat(43) });
      await expectRefused(await callback(url), id, 400, 'SSO_TOKEN_INVALID', expect.stringMatching(/invalid_grant/));
    });

    it.each([
      ['alg none', { alg: 'none' as const }, /alg/],
      ['HS256 keyed with the provider’s public key', { alg: 'HS256' as const }, /alg/],
      ['signed by a key that is not the provider’s (its kid)', { key: 'other' as const, claims: {} }, /signature/],
      ['a wrong iss', { claims: { iss: 'https://evil.example' } }, /^iss mismatch/],
      ['a wrong aud', { claims: { aud: 'another-client' } }, /^aud mismatch/],
      [
        'an expired token',
        { claims: { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 } },
        /exp/,
      ],
      [
        'an iat in the future',
        { claims: { iat: Math.floor(Date.now() / 1000) + 3600, exp: Math.floor(Date.now() / 1000) + 7200 } },
        /iat/,
      ],
    ])('400 SSO_TOKEN_INVALID: %s', async (_, change, reason) => {
      const { id, domain } = await activeConnection();
      const email = `forged-${Date.now()}@${domain}`;
      const url = await callbackFor(id, { sub: 'f-subject', email });
      await provider.tamperNext(change);
      await expectRefused(await callback(url), id, 400, 'SSO_TOKEN_INVALID', expect.stringMatching(reason));
      expect(await t.identity.findByEmail(email)).toEqual([]);
    });
  });
});

describe('POST /api/sso/discover: SSO_DISCOVER_RATE_LIMIT', () => {
  const { t } = useTestApp({ env: { SSO_DISCOVER_RATE_LIMIT: '2', PUBLIC_BASE_URL: BASE } });

  it('the third call in a minute from one address: 429 SSO_RATE_LIMITED with Retry-After', async () => {
    const discover = () => t.http.post('/api/sso/discover').send({ email: 'kim@acme.test' });
    expect((await discover()).body).toEqual({ sso: false });
    expect((await discover()).status).toBe(200);
    const res = await discover();
    expect([res.status, res.body]).toEqual([
      429,
      refused('SSO_RATE_LIMITED', expect.stringContaining('SSO_DISCOVER_RATE_LIMIT')),
    ]);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describeCognitoOnly('single sign-on’s sessions in cognito mode: the key and algorithm chosen by iss', () => {
  const { t, org } = useOrganisationSuite({ app: { env: { PUBLIC_BASE_URL: BASE } } });
  it('HS256 with AUTH_JWT_SECRET is a session when iss is PUBLIC_BASE_URL, never when it names the pool', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      token_use: 'id',
      sub: org.owner.id,
      email: org.owner.email,
      'custom:user_type': 'org',
      'custom:tenant_id': org.tenant.id,
      'custom:role': 'owner',
      aud: t.config.cognito.clientId,
      iat: now,
      exp: now + 300,
    };
    const me = (iss: string) =>
      t.http
        .get('/api/me')
        .set(
          'Cookie',
          `${t.config.sessionCookieName}=${sign({ ...claims, iss }, TEST_JWT_SECRET, { algorithm: 'HS256' })}`,
        );
    expect((await me(BASE)).body.user).toMatchObject({ id: org.owner.id });
    expect((await me(cognitoIssuer(t.config.cognito))).status).toBe(401);
    expect((await me('https://elsewhere.example')).status).toBe(401);
  });
});

describe('single sign-on under production settings', () => {
  const key = 'k'.repeat(64).replace(/k/g, 'a');
  const { t, org } = useOrganisationSuite({
    app: {
      env: {
        NODE_ENV: 'production',
        SSO_SECRETS_KEY: key,
        PUBLIC_BASE_URL: BASE,
        SHUTDOWN_DRAIN_SECONDS: '0',
        LOG_LEVEL: 'silent',
      },
    },
  });
  const create = (issuer: string) =>
    t.http
      .post('/api/org/sso/connections')
      .set('Cookie', org.ownerCookie)
      .send({ type: 'oidc', issuer, clientId: 'c', clientSecret: 's' });
  const createSaml = (metadataUrl: string) =>
    t.http.post('/api/org/sso/connections').set('Cookie', org.ownerCookie).send({ type: 'saml', metadataUrl });

  it.each([
    ['https://169.254.169.254', /169\.254\.169\.254.*link-local or private address.*SSO_ALLOW_PRIVATE/],
    ['https://127.0.0.1:8443', /127\.0\.0\.1/],
    ['http://idp.example.com', /not https/],
  ])('an issuer at %s: 422 SSO_DISCOVERY_FAILED before any request is sent', async (issuer, reason) => {
    const res = await create(issuer);
    expect([res.status, res.body]).toEqual([422, refused('SSO_DISCOVERY_FAILED', expect.stringMatching(reason))]);
    expect(await t.dataSource.getRepository(SsoConnectionEntity).countBy({ tenantId: org.tenant.id })).toBe(0);
  });

  it.each([
    ['https://169.254.169.254/metadata', /169\.254\.169\.254.*link-local or private address.*SSO_ALLOW_PRIVATE/],
    ['http://idp.example.com/metadata', /not https/],
  ])('a SAML metadata URL at %s: 422 SSO_METADATA_INVALID before any request is sent', async (url, reason) => {
    const res = await createSaml(url);
    expect([res.status, res.body]).toEqual([422, refused('SSO_METADATA_INVALID', expect.stringMatching(reason))]);
    expect(await t.dataSource.getRepository(SsoConnectionEntity).countBy({ tenantId: org.tenant.id })).toBe(0);
  });
});

describe('single sign-on in production without SSO_SECRETS_KEY', () => {
  const { t, org } = useOrganisationSuite({
    app: { env: { NODE_ENV: 'production', SHUTDOWN_DRAIN_SECONDS: '0', LOG_LEVEL: 'silent' } },
  });

  it('the service starts; the SSO routes answer 503 SSO_NOT_CONFIGURED, the others serve', async () => {
    const list = await t.http.get('/api/org/sso/connections').set('Cookie', org.ownerCookie);
    expect([list.status, list.body]).toEqual([
      503,
      refused('SSO_NOT_CONFIGURED', expect.stringContaining('SSO_SECRETS_KEY')),
    ]);
    expect((await t.http.post('/api/sso/discover').send({ email: 'kim@acme.test' })).status).toBe(503);
    expect((await t.http.get('/sso/start').query({ connection: 'x' })).status).toBe(503);
    expect((await t.http.get('/api/org/members').set('Cookie', org.ownerCookie)).status).toBe(200);
  });
});

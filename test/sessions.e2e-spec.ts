import { setTimeout as delay } from 'node:timers/promises';
import { SessionTokenIssuer } from '../src/auth/session-token-issuer';
import { randomUUID } from 'node:crypto';
import { AuditEventEntity, SessionCutoffEntity, SessionEntity, SsoConnectionEntity } from '../src/database/entities';
import { sessionCookie } from './support/factories';
import { PROVIDER_HOOK_TIMEOUT_MS, TestOidcProvider } from './support/oidc-provider';
import { SSO_BASE, SSO_PORTAL } from './support/sso';
import { useDomainsSuite } from './support/domains';
import { oktaUser, PATCH_OP, scimClient, scimToken } from './support/scim';
import { TestUser } from './support/test-identity';
import { SessionRetention } from '../src/sessions/session-retention';

const KEY = 'sessions-suite-test-mode-key';

/**
 * Sessions (docs/sessions.md): every session the service issues is a row that each request reads;
 * sign-out, the person's and administrators' views and ends, the ends that follow a removal or a
 * deletion, expiry, and single sign-on's enforcement by live sessions only.
 */
describe('sessions', () => {
  const provider = new TestOidcProvider();
  beforeAll(() => provider.start(), PROVIDER_HOOK_TIMEOUT_MS);
  afterAll(() => provider.stop());
  const { t, factory, org, verified } = useDomainsSuite({
    PUBLIC_BASE_URL: SSO_BASE,
    SSO_RETURN_ORIGINS: SSO_PORTAL,
    SESSION_IDLE_SECONDS: '600',
    TEST_MODE: 'true',
    TEST_MODE_KEY: KEY,
  });
  afterEach(() => t.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ reset: true }));
  const sessions = () => t.dataSource.getRepository(SessionEntity);
  const events = (type: string) => t.dataSource.getRepository(AuditEventEntity).findBy({ type });

  /** An active OIDC connection of the organisation and a verified domain of it. */
  const activeConnection = async () => {
    const domain = await verified();
    const created = await t.http.post('/api/org/sso/connections').set('Cookie', org.ownerCookie).send({
      type: 'oidc',
      name: 'Okta',
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
    });
    expect(created.status).toBe(201);
    const id = created.body.connection.id as string;
    await t.http.patch(`/api/org/sso/connections/${id}`).set('Cookie', org.ownerCookie).send({ status: 'active' });
    return { id, domain };
  };
  /** The cookie of a single sign-on through the provider, from a browser named `userAgent`. */
  const signIn = async (connectionId: string, sub: string, email: string, userAgent = 'Firefox/140') => {
    await provider.nextLogin({ sub, email });
    const started = await t.http.get('/sso/start').query({ connection: connectionId });
    const callback = await provider.authorize(started.headers.location);
    const res = await t.http.get(callback.pathname + callback.search).set('User-Agent', userAgent);
    expect(res.status).toBe(302);
    return (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  };
  /** A member of the organisation signed in by single sign-on. */
  const signedInMember = async (role = 'member') => {
    const { id, domain } = await activeConnection();
    const member = await factory.member(org.tenant.id, { role, email: `m${org.sequence++}@${domain}` });
    return { member, connectionId: id, cookie: await signIn(id, `sub-${member.id}`, member.email) };
  };
  /** A session the service issues (the CLI's kind) for `user`, as a Cookie header. */
  const issued = async (user: TestUser) => {
    const { token } = await t.app.get(SessionTokenIssuer).issue(user, { kind: 'sso', connectionId: 'none' });
    return `${t.config.sessionCookieName}=${token}`;
  };
  const sidOf = (cookie: string) =>
    JSON.parse(Buffer.from(cookie.split('=')[1].split('.')[1], 'base64url').toString('utf8')).sid as string;
  /** What an expired token gets on /api/me and a spec org route. */
  const expectNoSession = async (cookie: string) => {
    const me = await t.http.get('/api/me').set('Cookie', cookie);
    expect([me.status, me.body]).toEqual([401, { error: 'Unauthorized' }]);
    const members = await t.http.delete('/api/org/users/nobody').set('Cookie', cookie);
    expect([members.status, members.body]).toEqual([401, { error: 'Unauthorized' }]);
  };

  describe('POST /api/me/sign-out', () => {
    it('ends the session: 204 or the provider’s end-session URL; the cookie cleared as it was set; the token refused from the next request, byte for byte as an expired one', async () => {
      const { cookie } = await signedInMember();
      expect((await t.http.get('/api/me').set('Cookie', cookie)).status).toBe(200);
      const res = await t.http.post('/api/me/sign-out').set('Cookie', cookie);
      expect(res.headers['set-cookie']).toEqual(['id_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax']);
      expect(res.headers['cache-control']).toBe('no-store');
      if (res.status === 200) {
        const url = new URL(res.body.providerSignOutUrl);
        expect(url.searchParams.get('client_id')).toBe(provider.clientId);
        expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${SSO_BASE}/`);
      } else expect(res.status).toBe(204);
      expect(await sessions().findOneByOrFail({ id: sidOf(cookie) })).toMatchObject({
        revokedReason: 'sign_out',
        revokedAt: expect.any(Date),
      });
      const [event] = (await events('session.revoked')).filter((row) => row.data.includes(sidOf(cookie)));
      expect(JSON.parse(event.data)).toMatchObject({ sessionId: sidOf(cookie), reason: 'sign_out', via: 'sso' });
      await expectNoSession(cookie);
      const expired = await sessionCookie(t, await factory.member(org.tenant.id, { role: 'member' }), -10);
      const [a, b] = await Promise.all([cookie, expired].map((c) => t.http.get('/api/org/members').set('Cookie', c)));
      expect([a.status, a.body, a.headers['content-type']]).toEqual([b.status, b.body, b.headers['content-type']]);
    });

    it('a token without sid: the cookie cleared, 204, and the token still works (nobody revoked it)', async () => {
      const res = await t.http.post('/api/me/sign-out').set('Cookie', org.ownerCookie);
      expect([res.status, res.headers['set-cookie']]).toEqual([
        204,
        ['id_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax'],
      ]);
      expect((await t.http.get('/api/org/members').set('Cookie', org.ownerCookie)).status).toBe(200);
    });

    it('a browser’s form post with returnTo: 302 there; a returnTo outside the rule: 400 SESSION_RETURN_REFUSED, nothing ended', async () => {
      const cookie = await issued(org.owner);
      const bad = await t.http
        .post('/api/me/sign-out')
        .set('Cookie', cookie)
        .type('form')
        .send({ returnTo: '//evil.example' });
      expect([bad.status, bad.body.error]).toEqual([400, 'SESSION_RETURN_REFUSED']);
      expect((await sessions().findOneByOrFail({ id: sidOf(cookie) })).revokedAt).toBeNull();
      const res = await t.http
        .post('/api/me/sign-out')
        .set('Cookie', cookie)
        .type('form')
        .send({ returnTo: `${SSO_PORTAL}/bye` });
      expect([res.status, res.headers.location]).toEqual([302, `${SSO_PORTAL}/bye`]);
      await expectNoSession(cookie);
    });

    it('two sign-outs of one session at once: both 204, one revocation, one event', async () => {
      const cookie = await issued(org.owner);
      const answers = await Promise.all([1, 2].map(() => t.http.post('/api/me/sign-out').set('Cookie', cookie)));
      expect(answers.map((res) => res.status)).toEqual([204, 204]);
      const revoked = (await events('session.revoked')).filter((event) => event.data.includes(sidOf(cookie)));
      expect(revoked).toHaveLength(1);
    });
  });

  describe('GET /api/me/sessions', () => {
    it('live ones, newest first, with the current one marked and how each was made', async () => {
      const { member, connectionId, cookie } = await signedInMember();
      const second = await signIn(connectionId, `sub-${member.id}`, member.email, 'Safari/18');
      const res = await t.http.get('/api/me/sessions').set('Cookie', second);
      expect(res.status).toBe(200);
      expect(res.body.sessions).toEqual(
        [second, cookie].map((c, index) => ({
          id: sidOf(c),
          current: index === 0,
          via: { type: 'sso', connection: { id: connectionId, name: 'Okta' } },
          createdAt: expect.any(String),
          lastUsedAt: expect.any(String),
          expiresAt: expect.any(String),
          userAgent: index === 0 ? 'Safari/18' : 'Firefox/140',
          ip: expect.any(String),
        })),
      );
    });

    it('no session: 401', async () => {
      expect((await t.http.get('/api/me/sessions')).body).toEqual({ error: 'Unauthorized' });
    });
  });

  describe('DELETE /api/me/sessions/{id}', () => {
    it('ends another of the caller’s sessions: 204; another person’s id: 404 SESSION_NOT_FOUND, nothing ended', async () => {
      const mine = [await issued(org.owner), await issued(org.owner)];
      const theirs = await issued(await factory.member(org.tenant.id, { role: 'member' }));
      const other = await t.http.delete(`/api/me/sessions/${sidOf(theirs)}`).set('Cookie', mine[0]);
      expect([other.status, other.body]).toEqual([404, { success: false, error: 'SESSION_NOT_FOUND' }]);
      expect((await t.http.get('/api/me').set('Cookie', theirs)).status).toBe(200);
      expect((await t.http.delete(`/api/me/sessions/${sidOf(mine[1])}`).set('Cookie', mine[0])).status).toBe(204);
      await expectNoSession(mine[1]);
      expect((await t.http.get('/api/me').set('Cookie', mine[0])).status).toBe(200);
    });
  });

  describe('DELETE /api/me/sessions', () => {
    it('sign out everywhere: every session ended, an older token without sid refused, one issued after works', async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const older = await sessionCookie(t, member);
      const own = await issued(member);
      await delay(1_100); // "not before" is in whole seconds, as iat
      expect((await t.http.delete('/api/me/sessions').set('Cookie', own)).status).toBe(204);
      await expectNoSession(own);
      await expectNoSession(older);
      expect(await t.dataSource.getRepository(SessionCutoffEntity).findOneBy({ userId: member.id })).toBeTruthy();
      expect((await events('sessions.revoked_all')).filter((row) => row.targetId === member.id)).toHaveLength(1);
      expect((await t.http.get('/api/org/members').set('Cookie', await sessionCookie(t, member))).status).toBe(200);
      // Nobody else's sessions: the owner's token works on.
      expect((await t.http.get('/api/org/members').set('Cookie', org.ownerCookie)).status).toBe(200);
    });
  });

  describe('GET and DELETE /api/org/members/{id}/sessions', () => {
    it('an admin sees and ends a member’s sessions (and their "not before"); an owner’s: 403; another organisation’s user: 404; a member: 403', async () => {
      const admin = await factory.member(org.tenant.id, { role: 'admin' });
      const adminCookie = await sessionCookie(t, admin);
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const memberSession = await issued(member);
      const listed = await t.http.get(`/api/org/members/${member.id}/sessions`).set('Cookie', adminCookie);
      expect([listed.status, listed.body.sessions.map((s: { id: string }) => s.id)]).toEqual([
        200,
        [sidOf(memberSession)],
      ]);
      const owner = await t.http.delete(`/api/org/members/${org.owner.id}/sessions`).set('Cookie', adminCookie);
      expect([owner.status, owner.body]).toEqual([403, { error: "Admins cannot revoke owners' sessions" }]);
      const stranger = await factory.member((await factory.tenant()).id);
      const elsewhere = await t.http.delete(`/api/org/members/${stranger.id}/sessions`).set('Cookie', adminCookie);
      expect([elsewhere.status, elsewhere.body]).toEqual([404, { error: 'User not found' }]);
      const byMember = await t.http
        .get(`/api/org/members/${admin.id}/sessions`)
        .set('Cookie', await sessionCookie(t, member));
      expect(byMember.status).toBe(403);
      await delay(1_100);
      expect((await t.http.delete(`/api/org/members/${member.id}/sessions`).set('Cookie', adminCookie)).status).toBe(
        204,
      );
      await expectNoSession(memberSession);
      expect((await sessions().findOneByOrFail({ id: sidOf(memberSession) })).revokedReason).toBe('member_admin');
      expect((await t.http.get('/api/org/members').set('Cookie', org.ownerCookie)).status).toBe(200);
    });
  });

  describe('DELETE /api/admin/users/{id}/sessions', () => {
    it('a super-admin ends a user’s sessions: 204; anyone else: 403', async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const cookie = await issued(member);
      const byOwner = await t.http.delete(`/api/admin/users/${member.id}/sessions`).set('Cookie', org.ownerCookie);
      expect([byOwner.status, byOwner.body]).toEqual([403, { error: 'Forbidden' }]);
      const admin = await sessionCookie(t, await factory.superAdmin());
      expect((await t.http.delete(`/api/admin/users/${member.id}/sessions`).set('Cookie', admin)).status).toBe(204);
      await expectNoSession(cookie);
      expect((await t.http.delete('/api/admin/users/nobody/sessions').set('Cookie', admin)).status).toBe(404);
    });
  });

  describe('what ends sessions without anyone asking', () => {
    it('a removal (spec 4.10) ends the sessions made for the organisation; an account’s deletion ends all of its', async () => {
      const removed = await factory.member(org.tenant.id, { role: 'member' });
      const removedSession = await issued(removed);
      expect((await t.http.delete(`/api/org/users/${removed.id}`).set('Cookie', org.ownerCookie)).status).toBe(200);
      expect((await sessions().findOneByOrFail({ id: sidOf(removedSession) })).revokedReason).toBe('removed');
      const deleted = await factory.member(org.tenant.id, { role: 'member' });
      const deletedSession = await issued(deleted);
      const admin = await sessionCookie(t, await factory.superAdmin());
      expect((await t.http.delete(`/api/admin/users/${deleted.id}`).set('Cookie', admin)).status).toBe(200);
      expect((await sessions().findOneByOrFail({ id: sidOf(deletedSession) })).revokedReason).toBe('account_deleted');
    });

    it('a SCIM deactivation ends the sessions made for the organisation (deprovisioned); the person’s others live on', async () => {
      const person = await factory.user({ email: `scim-${org.sequence++}@example.com` });
      const scim = scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);
      const created = await scim.post('/Users', oktaUser(person.email));
      expect(created.status).toBe(201);
      const resource = JSON.parse(created.text);
      const member = (await t.identity.findById(person.id))!;
      const cookie = await issued(member);
      const elsewhere = await issued({ ...member, tenantId: null, userType: null, role: null });
      const patched = await scim.patch(`/Users/${resource.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { active: false } }],
      });
      expect(patched.status).toBe(200);
      expect((await sessions().findOneByOrFail({ id: sidOf(cookie) })).revokedReason).toBe('deprovisioned');
      expect((await sessions().findOneByOrFail({ id: sidOf(elsewhere) })).revokedAt).toBeNull();
      await expectNoSession(cookie);
    });

    it('a connection deactivated ends the sessions it made', async () => {
      const { connectionId, cookie } = await signedInMember();
      const res = await t.http
        .patch(`/api/org/sso/connections/${connectionId}`)
        .set('Cookie', org.ownerCookie)
        .send({ status: 'inactive' });
      expect(res.status).toBe(200);
      expect((await sessions().findOneByOrFail({ id: sidOf(cookie) })).revokedReason).toBe('connection_removed');
      await expectNoSession(cookie);
    });
  });

  describe('housekeeping', () => {
    it('ended sessions are purged SESSION_RETENTION_DAYS after they ended; live ones and recent ends stay', async () => {
      const day = 24 * 3600 * 1000;
      const at = (days: number) => new Date(Date.now() + days * day);
      const row = (id: string, expiresAt: Date, revokedAt: Date | null = null) => ({
        id,
        userId: org.owner.id,
        tenantId: org.tenant.id,
        kind: 'cli' as const,
        connectionId: null,
        createdAt: at(-60),
        lastUsedAt: at(-60),
        expiresAt,
        idleSeconds: 0,
        userAgent: null,
        ip: null,
        revokedAt,
        revokedReason: revokedAt && ('self' as const),
      });
      const prefix = `purge-${org.sequence++}-`;
      await sessions().insert([
        row(`${prefix}expired-long-ago`, at(-31)),
        row(`${prefix}revoked-long-ago`, at(-40), at(-40)),
        row(`${prefix}expired-lately`, at(-29)),
        row(`${prefix}live`, at(1)),
      ]);
      await t.app.get(SessionRetention).purge();
      const left = (await sessions().find()).map((session) => session.id).filter((id) => id.startsWith(prefix));
      expect(left.sort()).toEqual([`${prefix}expired-lately`, `${prefix}live`]);
    });
  });

  describe('expiry', () => {
    const advance = (advanceSeconds: number) =>
      t.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ advanceSeconds });

    it('idle past SESSION_IDLE_SECONDS: no session; a session used within it lives on', async () => {
      const idle = await issued(org.owner);
      const used = await issued(org.owner);
      await advance(400);
      expect((await t.http.get('/api/me').set('Cookie', used)).status).toBe(200);
      await advance(300);
      await expectNoSession(idle);
      expect((await t.http.get('/api/me').set('Cookie', used)).status).toBe(200);
    });

    it('past its absolute expiry (SESSION_TTL_SECONDS): no session, however recently used', async () => {
      const cookie = await issued(org.owner);
      for (let step = 0; step < 48; step++) {
        await advance(590);
        expect((await t.http.get('/api/me').set('Cookie', cookie)).status).toBe(200);
      }
      await advance(590);
      await expectNoSession(cookie);
    });
  });

  describe('enforcement: only a live session that an active connection of the organisation made passes', () => {
    it('a token claiming amr sso without sid, a session of no connection, one of another organisation’s connection: 403 SSO_REQUIRED; the organisation’s own: 200', async () => {
      const { member, cookie } = await signedInMember();
      expect((await t.http.patch('/api/org/sso').set('Cookie', org.ownerCookie).send({ enforced: true })).status).toBe(
        200,
      );
      expect((await t.http.get('/api/org/members').set('Cookie', cookie)).status).toBe(200);
      const claims = t.testIdentity.signedPayload({
        ...t.testIdentity.issuerClaims,
        sub: member.id,
        email: member.email,
        token_use: 'id',
        amr: ['sso'],
        'custom:user_type': 'org',
        'custom:tenant_id': org.tenant.id,
        'custom:role': 'member',
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 600,
      });
      const none = await issued(member); // a connection id of no connection at all
      // A session that a connection of another organisation made.
      const connections = t.dataSource.getRepository(SsoConnectionEntity);
      const own = await connections.findOneByOrFail({ tenantId: org.tenant.id, status: 'active' });
      const theirs = { ...own, id: randomUUID(), tenantId: (await factory.tenant({ status: 'active' })).id };
      await connections.insert(theirs);
      const { token } = await t.app.get(SessionTokenIssuer).issue(member, { kind: 'sso', connectionId: theirs.id });
      for (const forged of [`id_token=${claims}`, none, `id_token=${token}`]) {
        const res = await t.http.get('/api/org/members').set('Cookie', forged);
        expect([res.status, res.body.error]).toEqual([403, 'SSO_REQUIRED']);
      }
      expect((await t.http.get('/api/org/members').set('Cookie', org.ownerCookie)).status).toBe(200);
    });
  });
});

import {
  MemberRoleEntity,
  AuditEventEntity,
  JoinRequestEntity,
  MembershipGrantEntity,
  OrgDomainEntity,
  TenantEntity,
} from '../src/database/entities';
import { DomainRechecks } from '../src/domains/domain-rechecks';
import { factories, sessionCookie } from './support/factories';
import { UNAUTHORIZED } from './support/spec-bodies';
import { useTwoInstances } from './support/suites';
import { CognitoTestIdentity } from './support/cognito-test-identity';
import { refused, useDomainsSuite } from './support/domains';
import { TestDns } from './support/test-dns';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Verified domains (docs/domains.md), against a DNS server on the loopback: claims, the proof by a
 * TXT record, re-checks, join modes, requests, removal, the operators' release, and /api/me.
 */
describe('verified domains', () => {
  const {
    t,
    factory,
    org,
    dns,
    local,
    newName,
    claim,
    verify,
    publishFor,
    verified,
    verifiedCookie,
    person,
    joinOrg,
    expectJoinRefused,
  } = useDomainsSuite({
    DNS_TIMEOUT_MS: '1000',
    DOMAINS_PER_ORG: '3',
    DOMAIN_RECHECK_SECONDS: '1',
    DOMAIN_GRACE_SECONDS: '1',
    DOMAIN_DENYLIST: 'denied.test',
    DOMAIN_ALLOWLIST: 'gmail.com',
  });
  let seq = 0;
  const domains = () => t.dataSource.getRepository(OrgDomainEntity);
  const stored = (tenantId: string, name: string) => domains().findOneBy({ tenantId, name });
  const events = (type: string) => t.dataSource.getRepository(AuditEventEntity).findBy({ type });

  describe('POST /api/org/domains', () => {
    it('claims a normalised name: 201, pending, join mode off, a record under the domain with a fresh token; domain.added', async () => {
      const name = newName();
      const res = await claim(`  ${name.toUpperCase()}. `);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        domain: {
          name,
          status: 'pending',
          joinMode: 'off',
          defaultRoles: [],
          verification: {
            recordName: `_tenant-verification.${name}`,
            recordValue: expect.stringMatching(/^tenant-verification=[A-Za-z0-9_-]{43}$/),
            expiresAt: expect.any(String),
          },
          lastCheck: null,
          verifiedAt: null,
          graceEndsAt: null,
          createdAt: expect.any(String),
        },
      });
      expect(await stored(org.tenant.id, name)).toMatchObject({ status: 'pending', joinMode: 'off', heldName: null });
      expect((await events('domain.added')).some((event) => event.tenantId === org.tenant.id)).toBe(true);
      const other = await claim(newName());
      expect(other.body.domain.verification.recordValue).not.toBe(res.body.domain.verification.recordValue);
    });

    it('an IDN is stored as its A-label', async () => {
      const res = await claim(`bücher-${seq++}.test`);
      expect(res.status).toBe(201);
      expect(res.body.domain.name).toMatch(/^xn--bcher-.*\.test$/);
    });

    it.each([
      ['an IP address', '192.168.1.1'],
      ['an IPv6 address', '::1'],
      ['a wildcard', '*.acme.test'],
      ['an address', 'kate@acme.test'],
      ['a single label', 'localhost'],
      ['a label over 63', `${'a'.repeat(64)}.test`],
      ['a name over 253', `${'a'.repeat(60)}.`.repeat(5) + 'test'],
      ['not a string', 42],
      ['empty', ''],
    ])('400 DOMAIN_INVALID: %s, and nothing stored', async (_, name) => {
      const before = await domains().countBy({ tenantId: org.tenant.id });
      const res = await invalidRequest(() => claim(name));
      expect([res.status, res.body]).toEqual([400, refused('DOMAIN_INVALID')]);
      expect(await domains().countBy({ tenantId: org.tenant.id })).toBe(before);
    });

    it.each([
      ['co.uk', 'DOMAIN_PUBLIC_SUFFIX'],
      ['github.io', 'DOMAIN_PUBLIC_SUFFIX'],
      ['yahoo.com', 'DOMAIN_FREE_PROVIDER'],
      ['mailinator.com', 'DOMAIN_FREE_PROVIDER'],
      ['denied.test', 'DOMAIN_FREE_PROVIDER'],
    ])('422: %s is %s', async (name, error) => {
      const res = await claim(name);
      expect([res.status, res.body]).toEqual([422, refused(error)]);
      expect(await stored(org.tenant.id, name)).toBeNull();
    });

    it('DOMAIN_ALLOWLIST wins over the lists (gmail.com here); .test, .example and .invalid are ordinary names', async () => {
      expect((await claim('gmail.com')).status).toBe(201);
      expect((await claim(`x${seq++}.example`)).status).toBe(201);
    });

    it('409 DOMAIN_ALREADY_ADDED; 409 DOMAIN_TAKEN when another organisation holds it verified (unnamed); pending: no block', async () => {
      const name = newName();
      expect((await claim(name)).status).toBe(201);
      expect([(await claim(name)).status, (await claim(name)).body]).toEqual([409, refused('DOMAIN_ALREADY_ADDED')]);
      const other = await factory.tenant({ status: 'active' });
      const otherOwner = await factory.member(other.id);
      const otherCookie = await sessionCookie(t, otherOwner);
      expect((await claim(name, otherCookie)).status).toBe(201);
      const held = await verified('off', otherCookie);
      const res = await claim(held);
      expect([res.status, res.body]).toEqual([409, refused('DOMAIN_TAKEN')]);
      expect(JSON.stringify(res.body)).not.toContain(other.id);
    });

    it('422 DOMAIN_LIMIT past DOMAINS_PER_ORG', async () => {
      for (let i = 0; i < 3; i++) expect((await claim(newName())).status).toBe(201);
      const res = await claim(newName());
      expect([res.status, res.body]).toEqual([422, refused('DOMAIN_LIMIT')]);
      expect(await domains().countBy({ tenantId: org.tenant.id })).toBe(3);
    });

    it('"DOMAINS_PER_ORG" holds under concurrency: of 12 parallel claims 3 are created, the others 422 DOMAIN_LIMIT', async () => {
      const answers = await Promise.all(Array.from({ length: 12 }, () => claim(newName())));
      expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
      for (const res of answers.filter((answer) => answer.status !== 201))
        expect([res.status, res.body]).toEqual([422, refused('DOMAIN_LIMIT')]);
      expect(await domains().countBy({ tenantId: org.tenant.id })).toBe(3);
      const added = (await events('domain.added')).filter((event) => event.tenantId === org.tenant.id);
      expect(added).toHaveLength(3);
    });

    it('a member is 403, no session 401, a suspended tenant 403: nothing stored', async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const name = newName();
      const res = await claim(name, await sessionCookie(t, member));
      expect([res.status, res.body]).toEqual([403, { error: 'Only owner or admin can manage domains' }]);
      const anonymous = await t.http.post('/api/org/domains').send({ domain: name });
      expect([anonymous.status, anonymous.body]).toEqual([401, UNAUTHORIZED]);
      await t.dataSource.getRepository(TenantEntity).update({ id: org.tenant.id }, { status: 'suspended' });
      expect((await claim(name)).status).toBe(403);
      expect(await stored(org.tenant.id, name)).toBeNull();
    });

    it('an Idempotency-Key replays the first answer', async () => {
      const name = newName();
      const send = () =>
        t.http
          .post('/api/org/domains')
          .set('Cookie', org.ownerCookie)
          .set('Idempotency-Key', `k-${name}`)
          .send({ domain: name });
      const first = await send();
      const second = await send();
      expect(first.status).toBe(201);
      expect([second.status, second.body]).toEqual([201, first.body]);
      expect(await domains().countBy({ name })).toBe(1);
    });
  });

  describe('GET /api/org/domains and /api/org/domains/{name}', () => {
    it('lists the organisation’s claims; one by name; 404 for another organisation’s', async () => {
      const name = newName();
      await claim(name);
      const list = await t.http.get('/api/org/domains').set('Cookie', org.ownerCookie);
      expect(list.status).toBe(200);
      expect(list.body.domains.map((domain: { name: string }) => domain.name)).toContain(name);
      const one = await t.http.get(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie);
      expect([one.status, one.body.domain.name]).toEqual([200, name]);
      const other = await factory.tenant({ status: 'active' });
      const otherCookie = await sessionCookie(t, await factory.member(other.id));
      const missing = await t.http.get(`/api/org/domains/${name}`).set('Cookie', otherCookie);
      expect([missing.status, missing.body]).toEqual([404, refused('DOMAIN_NOT_FOUND')]);
    });
  });

  describe('POST /api/org/domains/{name}/verify', () => {
    it('record missing: 200, record_not_found, still pending; domain.verification_failed', async () => {
      const name = newName();
      await claim(name);
      const res = await verify(name);
      expect(res.status).toBe(200);
      expect(res.body.domain).toMatchObject({ status: 'pending', lastCheck: { result: 'record_not_found' } });
      expect((await events('domain.verification_failed')).some((e) => JSON.parse(e.data).domain === name)).toBe(true);
    });

    it('wrong token: token_mismatch; the record at the apex instead of recordName: record_not_found', async () => {
      const name = newName();
      const added = await claim(name);
      dns.publish(name, added.body.domain.verification.recordValue);
      expect((await verify(name)).body.domain.lastCheck.result).toBe('record_not_found');
      dns.publish(`_tenant-verification.${name}`, 'tenant-verification=not-the-token');
      dns.publish(`_tenant-verification.${name}`, 'v=spf1 -all');
      const res = await verify(name);
      expect(res.body.domain).toMatchObject({ status: 'pending', lastCheck: { result: 'token_mismatch' } });
    });

    it('split chunks of one record are joined: verified, with verifiedAt; domain.verified', async () => {
      const name = newName();
      const added = await claim(name);
      const value: string = added.body.domain.verification.recordValue;
      dns.publish(`_tenant-verification.${name}`, 'some other record');
      dns.publish(`_tenant-verification.${name}`, value.slice(0, 20), value.slice(20));
      const res = await verify(name);
      expect(res.status).toBe(200);
      expect(res.body.domain).toMatchObject({
        status: 'verified',
        lastCheck: { result: 'found' },
        verifiedAt: expect.any(String),
      });
      expect(await stored(org.tenant.id, name)).toMatchObject({ status: 'verified', heldName: name });
    });

    it('the DNS server stopped: 503 DNS_UNAVAILABLE, the claim as it was', async () => {
      const name = newName();
      await claim(name);
      const before = await stored(org.tenant.id, name);
      await dns.stop();
      try {
        const res = await verify(name);
        expect([res.status, res.body]).toEqual([503, refused('DNS_UNAVAILABLE')]);
      } finally {
        await dns.start();
      }
      expect(await stored(org.tenant.id, name)).toEqual(before);
    });

    it('two organisations racing for one name: one is verified, the other 409 DOMAIN_TAKEN and stays pending', async () => {
      const name = newName();
      const other = await factory.tenant({ status: 'active' });
      const otherCookie = await sessionCookie(t, await factory.member(other.id));
      const mine = await claim(name);
      const theirs = await claim(name, otherCookie);
      publishFor(mine.body);
      publishFor(theirs.body);
      const answers = await Promise.all([verify(name), verify(name, otherCookie)]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
      const loser = answers.find((res) => res.status === 409)!;
      expect(loser.body).toEqual(refused('DOMAIN_TAKEN'));
      const rows = await domains().findBy({ name });
      expect(rows.map((row) => row.status).sort()).toEqual(['pending', 'verified']);
    });

    it('410 VERIFICATION_EXPIRED past the window, then expired; rotate: a new token and window, the old value stops working', async () => {
      const name = newName();
      const added = await claim(name);
      publishFor(added.body);
      await domains().update(
        { tenantId: org.tenant.id, name },
        { tokenIssuedAt: new Date(Date.now() - 8 * 86_400_000) },
      );
      expect((await t.http.get(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie)).body.domain.status).toBe(
        'expired',
      );
      const res = await verify(name);
      expect([res.status, res.body]).toEqual([410, refused('VERIFICATION_EXPIRED')]);
      expect((await stored(org.tenant.id, name))!.status).toBe('expired');
      const rotated = await t.http.post(`/api/org/domains/${name}/rotate`).set('Cookie', org.ownerCookie);
      expect(rotated.status).toBe(200);
      expect(rotated.body.domain.status).toBe('pending');
      expect(rotated.body.domain.verification.recordValue).not.toBe(added.body.domain.verification.recordValue);
      expect((await verify(name)).body.domain.lastCheck.result).toBe('token_mismatch');
      publishFor(rotated.body);
      expect((await verify(name)).body.domain.status).toBe('verified');
      const again = await t.http.post(`/api/org/domains/${name}/rotate`).set('Cookie', org.ownerCookie);
      expect([again.status, again.body]).toEqual([409, refused('DOMAIN_ALREADY_VERIFIED')]);
    });
  });

  describe('re-checks', () => {
    it('a miss: failing with graceEndsAt (joinable); past the grace the re-check makes it lapsed: no joins, members stay', async () => {
      const name = await verified('auto');
      const { user, cookie } = await person(name);
      dns.clear(`_tenant-verification.${name}`);
      const failing = await verify(name);
      expect(failing.body.domain).toMatchObject({ status: 'failing', graceEndsAt: expect.any(String) });
      expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
      await sleep(1_200);
      const rechecks = t.app.get(DomainRechecks);
      await domains().update({ tenantId: org.tenant.id, name }, { nextCheckAt: new Date(Date.now() - 1000) });
      await rechecks.recheckDue();
      expect(await stored(org.tenant.id, name)).toMatchObject({ status: 'lapsed', heldName: null });
      expect((await events('domain.lapsed')).some((e) => JSON.parse(e.data).domain === name)).toBe(true);
      expect((await t.identity.findById(user.id))?.tenantId).toBe(org.tenant.id);
      const late = await person(name);
      expect((await joinOrg(org.tenant.id, late.cookie)).body).toEqual(refused('NOT_JOINABLE'));
      const stuck = await verify(name);
      expect([stuck.status, stuck.body]).toEqual([409, refused('DOMAIN_LAPSED')]);
    });

    it('the record’s return makes a failing domain verified again', async () => {
      const name = await verified();
      const value = (await stored(org.tenant.id, name))!.token;
      dns.clear(`_tenant-verification.${name}`);
      expect((await verify(name)).body.domain.status).toBe('failing');
      dns.publish(`_tenant-verification.${name}`, `tenant-verification=${value}`);
      await domains().update({ tenantId: org.tenant.id, name }, { nextCheckAt: new Date(Date.now() - 1000) });
      await t.app.get(DomainRechecks).recheckDue();
      expect(await stored(org.tenant.id, name)).toMatchObject({ status: 'verified', graceEndsAt: null });
    });
  });

  describe('PATCH /api/org/domains/{name}', () => {
    it('sets the join mode; a bad one is 400 INVALID_JOIN_MODE and changes nothing; domain.updated', async () => {
      const name = newName();
      await claim(name);
      const bad = await invalidRequest(
        t.http.patch(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie).send({ joinMode: 'open' }),
      );
      expect([bad.status, bad.body]).toEqual([400, refused('INVALID_JOIN_MODE')]);
      const res = await t.http
        .patch(`/api/org/domains/${name}`)
        .set('Cookie', org.ownerCookie)
        .send({ joinMode: 'request' });
      expect([res.status, res.body.domain.joinMode]).toEqual([200, 'request']);
      expect((await stored(org.tenant.id, name))!.joinMode).toBe('request');
      // Set on a pending claim, it does not act.
      const { cookie } = await person(name);
      expect((await t.http.get('/api/me/joinable-organisations').set('Cookie', cookie)).body).toEqual({
        organisations: [],
      });
    });
  });

  describe('the bodies of the domain routes: each refusal in the route’s own code, nothing changed', () => {
    const json = (path: string, method: 'post' | 'patch', body: string, cookie = org.ownerCookie) =>
      invalidRequest(t.http[method](path).set('Cookie', cookie).set('Content-Type', 'application/json').send(body));

    it('POST /api/org/domains: a body that is no JSON object, or none, is 400 DOMAIN_INVALID', async () => {
      const before = await domains().countBy({ tenantId: org.tenant.id });
      for (const body of ['["acme.test"]', '{}', '{"domain":null}', '{"domain":["acme.test"]}']) {
        const res = await json('/api/org/domains', 'post', body);
        expect([res.status, res.body]).toEqual([400, refused('DOMAIN_INVALID')]);
      }
      const none = await invalidRequest(t.http.post('/api/org/domains').set('Cookie', org.ownerCookie));
      expect([none.status, none.body]).toEqual([400, refused('DOMAIN_INVALID')]);
      expect(await domains().countBy({ tenantId: org.tenant.id })).toBe(before);
    });

    it('PATCH /api/org/domains/{name}: an unknown name is 404 whatever the body; the join mode is checked first', async () => {
      const unknown = await json(`/api/org/domains/${newName()}`, 'patch', '[]');
      expect([unknown.status, unknown.body]).toEqual([404, refused('DOMAIN_NOT_FOUND')]);
      const name = newName();
      await claim(name);
      for (const [body, code] of [
        ['[]', 'INVALID_JOIN_MODE'],
        ['{}', 'INVALID_JOIN_MODE'],
        ['{"joinMode":null,"defaultRoles":[]}', 'INVALID_JOIN_MODE'],
        ['{"joinMode":1,"defaultRoles":"x"}', 'INVALID_JOIN_MODE'],
        ['{"defaultRoles":null}', 'INVALID_DEFAULT_ROLES'],
        ['{"joinMode":"auto","defaultRoles":[1]}', 'INVALID_DEFAULT_ROLES'],
      ]) {
        const res = await json(`/api/org/domains/${name}`, 'patch', body);
        expect([body, res.status, res.body]).toEqual([body, 400, refused(code)]);
      }
      expect((await stored(org.tenant.id, name))!.joinMode).toBe('off');
    });

    it('POST /api/admin/domains/{name}/release: no tenantId (or no object) is 400 TENANT_ID_REQUIRED, before the name is looked up', async () => {
      const rootCookie = await sessionCookie(t, await factory.superAdmin());
      const path = `/api/admin/domains/${newName()}/release`;
      for (const body of ['[]', '{}', '{"tenantId":"  ","reason":"r"}', '{"tenantId":7,"reason":"r"}']) {
        const res = await json(path, 'post', body, rootCookie);
        expect([body, res.status, res.body]).toEqual([body, 400, refused('TENANT_ID_REQUIRED')]);
      }
      const unknown = await json(path, 'post', `{"tenantId":"${org.tenant.id}","reason":"r"}`, rootCookie);
      expect([unknown.status, unknown.body]).toEqual([404, refused('DOMAIN_NOT_FOUND')]);
    });
  });

  describe('PATCH /api/org/domains/{name}: defaultRoles', () => {
    const defineRole = async (key: string, permissions: string[]) =>
      expect(
        (await t.http.post('/api/org/roles').set('Cookie', org.ownerCookie).send({ key, name: key, permissions }))
          .status,
      ).toBe(201);
    const setRoles = (name: string, defaultRoles: unknown, cookie = org.ownerCookie) =>
      t.http.patch(`/api/org/domains/${name}`).set('Cookie', cookie).send({ defaultRoles });
    const rolesOf = async (userId: string) =>
      (await t.dataSource.getRepository(MemberRoleEntity).findBy({ tenantId: org.tenant.id, userId }))
        .map((row) => row.roleKey)
        .sort();

    it('the custom roles that joins by the domain get: set as a whole, checked as an invitation’s roles are; domain.updated', async () => {
      await defineRole('recruiter', ['invitations:create']);
      await defineRole('manager', ['roles:manage']);
      const name = await verified('auto');
      const res = await setRoles(name, ['recruiter']);
      expect([res.status, res.body.domain.defaultRoles, res.body.domain.joinMode]).toEqual([
        200,
        ['recruiter'],
        'auto',
      ]);
      const listed = await t.http.get('/api/org/domains').set('Cookie', org.ownerCookie);
      expect(listed.body.domains.find((d: { name: string }) => d.name === name).defaultRoles).toEqual(['recruiter']);
      const [updated] = (await events('domain.updated')).filter((e) => JSON.parse(e.data).defaultRoles);
      expect(JSON.parse(updated.data).defaultRoles).toEqual({ before: [], after: ['recruiter'] });
      // Refused, each changing nothing.
      const unknown = await setRoles(name, ['nobody']);
      expect([unknown.status, unknown.body]).toEqual([422, { success: false, error: 'UNKNOWN_ROLE', role: 'nobody' }]);
      expect((await invalidRequest(setRoles(name, 'recruiter'))).body).toEqual(refused('INVALID_DEFAULT_ROLES'));
      const admin = await sessionCookie(t, await factory.member(org.tenant.id, { role: 'admin' }));
      const escalation = await setRoles(name, ['manager'], admin);
      expect([escalation.status, escalation.body]).toEqual([
        403,
        { success: false, error: 'ROLE_ESCALATION', permission: 'roles:manage' },
      ]);
      expect(
        (await t.http.get(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie)).body.domain.defaultRoles,
      ).toEqual(['recruiter']);
      // An auto join gets them, in the join's transaction.
      const { user, cookie } = await person(name);
      expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
      expect(await rolesOf(user.id)).toEqual(['recruiter']);
      const changed = (await events('member.roles_changed')).map((e) => JSON.parse(e.data));
      expect(changed).toContainEqual(expect.objectContaining({ before: [], after: ['recruiter'] }));
    });

    it('an approved request gets the domain’s roles as they are at approval; a role deleted goes from the domain, one reassigned follows', async () => {
      await defineRole('analyst', ['audit:read']);
      await defineRole('auditor', ['audit:read']);
      await defineRole('temp', ['audit:read']);
      const name = await verified('request');
      expect((await setRoles(name, ['analyst', 'temp'])).status).toBe(200);
      const { user, cookie } = await person(name);
      const asked = await joinOrg(org.tenant.id, cookie);
      expect(asked.status).toBe(202);
      // Nobody holds temp: deleted at once, and taken off the domain.
      expect((await t.http.delete('/api/org/roles/temp').set('Cookie', org.ownerCookie)).status).toBe(200);
      const approved = await t.http
        .post(`/api/org/join-requests/${asked.body.request.id}/approve`)
        .set('Cookie', org.ownerCookie);
      expect(approved.status).toBe(200);
      expect(await rolesOf(user.id)).toEqual(['analyst']);
      // analyst's holder and the domain go to auditor.
      const deleted = await t.http.delete('/api/org/roles/analyst?reassignTo=auditor').set('Cookie', org.ownerCookie);
      expect(deleted.status).toBe(200);
      expect(
        (await t.http.get(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie)).body.domain.defaultRoles,
      ).toEqual(['auditor']);
      expect(await rolesOf(user.id)).toEqual(['auditor']);
    });
  });

  describe('GET /api/me', () => {
    it('the user and organisation from the store, not from the session', async () => {
      const res = await t.http.get('/api/me').set('Cookie', org.ownerCookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        user: { id: org.owner.id, email: org.owner.email, emailVerified: !local(), platformRole: null },
        organisation: { id: org.tenant.id, name: org.tenant.name, status: 'active', role: 'owner' },
      });
      expect((await t.http.get('/api/me')).status).toBe(401);
    });

    it('a person the store does not know: the session’s id and e-mail, organisation null', async () => {
      if (!local()) return;
      const cookie = await verifiedCookie({ id: 'ghost-1', email: 'ghost@nowhere.test' } as TestUser);
      const res = await t.http.get('/api/me').set('Cookie', cookie);
      expect(res.body).toEqual({
        user: { id: 'ghost-1', email: 'ghost@nowhere.test', emailVerified: true, platformRole: null },
        organisation: null,
      });
    });
  });

  describe('GET /api/me/invitations', () => {
    it('pending, unexpired invitations to the verified address; empty when it is not verified', async () => {
      const user = await factory.user();
      const invitation = await factory.invitation({ tenantId: org.tenant.id, email: user.email, role: 'admin' });
      await factory.invitation({ tenantId: org.tenant.id, email: user.email, expiresAt: new Date(Date.now() - 1000) });
      const res = await t.http.get('/api/me/invitations').set('Cookie', await verifiedCookie(user));
      expect(res.body).toEqual({
        invitations: [
          {
            token: invitation.id,
            tenantId: org.tenant.id,
            organisationName: org.tenant.name,
            role: 'admin',
            expiresAt: invitation.expiresAt.toISOString(),
          },
        ],
      });
      if (local()) {
        const unverified = await t.http.get('/api/me/invitations').set('Cookie', await verifiedCookie(user, false));
        expect(unverified.body).toEqual({ invitations: [] });
      }
    });
  });

  describe('GET /api/me/joinable-organisations', () => {
    it('active organisations with a verified domain equal to the e-mail’s and a join mode; no subdomains; empty for a member', async () => {
      const name = await verified('request');
      const { cookie } = await person(name);
      const res = await t.http.get('/api/me/joinable-organisations').set('Cookie', cookie);
      expect(res.body).toEqual({
        organisations: [{ tenantId: org.tenant.id, name: org.tenant.name, domain: name, joinMode: 'request' }],
      });
      const sub = await person(`mail.${name}`);
      expect((await t.http.get('/api/me/joinable-organisations').set('Cookie', sub.cookie)).body).toEqual({
        organisations: [],
      });
      expect((await t.http.get('/api/me/joinable-organisations').set('Cookie', org.ownerCookie)).body).toEqual({
        organisations: [],
      });
      if (local()) {
        const user = await factory.user({ email: `u-${seq++}@${name}` });
        for (const claimValue of [false, 'absent']) {
          const unverified = await verifiedCookie(user, claimValue);
          expect((await t.http.get('/api/me/joinable-organisations').set('Cookie', unverified)).body).toEqual({
            organisations: [],
          });
        }
      }
    });

    it('a member is offered nothing, the organisation they joined included, nor is one whose membership is on its way to the pool', async () => {
      const name = await verified('auto');
      const { cookie } = await person(name);
      expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
      expect((await t.http.get('/api/me/joinable-organisations').set('Cookie', cookie)).body).toEqual({
        organisations: [],
      });
      if (!local()) {
        const waiting = await person(name);
        // A grant that the pool has yet to take, held back from the worker.
        await t.dataSource.getRepository(MembershipGrantEntity).insert({
          id: `grant-${seq++}`,
          userId: waiting.user.id,
          tenantId: org.tenant.id,
          role: 'member',
          status: 'pending',
          attempts: 0,
          nextAttemptAt: new Date(Date.now() + 3600_000),
          claimedBy: null,
          claimedUntil: null,
          lastError: null,
          createdAt: new Date(),
        });
        expect((await t.http.get('/api/me/joinable-organisations').set('Cookie', waiting.cookie)).body).toEqual({
          organisations: [],
        });
      }
    });

    it('leaves out an organisation that removed the person (join: 403 REMOVED_BY_ORGANISATION); others at the domain see it', async () => {
      const name = await verified('auto');
      const removed = await person(name);
      const colleague = await person(name);
      expect((await joinOrg(org.tenant.id, removed.cookie)).status).toBe(200);
      expect((await t.http.delete(`/api/org/users/${removed.user.id}`).set('Cookie', org.ownerCookie)).status).toBe(
        200,
      );
      const joinable = (cookie: string) => t.http.get('/api/me/joinable-organisations').set('Cookie', cookie);
      const theirs = await joinable(removed.cookie);
      expect([theirs.status, theirs.body]).toEqual([200, { organisations: [] }]);
      const others = await joinable(colleague.cookie);
      expect([others.status, others.body]).toEqual([
        200,
        { organisations: [{ tenantId: org.tenant.id, name: org.tenant.name, domain: name, joinMode: 'auto' }] },
      ]);
      await expectJoinRefused(removed.user.id, removed.cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
      expect((await t.identity.findById(removed.user.id))?.tenantId ?? null).toBeNull();
    });
  });

  describe('POST /api/me/joinable-organisations/{tenantId}/join', () => {
    it('auto: 200, a member with the role member at once; member.joined via domain', async () => {
      const name = await verified('auto');
      const { user, cookie } = await person(name);
      const res = await joinOrg(org.tenant.id, cookie);
      expect([res.status, res.body]).toEqual([
        200,
        { success: true, tenantId: org.tenant.id, role: 'member', userId: user.id },
      ]);
      expect(await t.identity.findById(user.id)).toMatchObject({
        userType: 'org',
        tenantId: org.tenant.id,
        role: 'member',
      });
      const joined = (await events('member.joined')).find((event) => event.targetId === user.id)!;
      expect(JSON.parse(joined.data)).toEqual({ role: 'member', via: 'domain', domain: name });
    });

    it('request: 202 with a pending request; a second ask returns the same one; join_request.created', async () => {
      const name = await verified('request');
      const { user, cookie } = await person(name);
      const first = await joinOrg(org.tenant.id, cookie);
      expect([first.status, first.body]).toEqual([
        202,
        { success: true, request: { id: expect.any(String), status: 'pending' } },
      ]);
      const second = await joinOrg(org.tenant.id, cookie);
      expect([second.status, second.body]).toEqual([202, first.body]);
      expect(await t.dataSource.getRepository(JoinRequestEntity).countBy({ userId: user.id })).toBe(1);
      expect((await t.identity.findById(user.id))?.tenantId).toBeNull();
    });

    it('refusals in order, each changing nothing: 401, 403 EMAIL_NOT_VERIFIED, 409, 404 NOT_JOINABLE', async () => {
      const name = await verified('auto');
      const { user, cookie } = await person(name);
      await expectJoinRefused(user.id, undefined, org.tenant.id, 401, UNAUTHORIZED);
      if (local()) {
        await expectJoinRefused(
          user.id,
          await verifiedCookie(user, false),
          org.tenant.id,
          403,
          refused('EMAIL_NOT_VERIFIED'),
        );
        await expectJoinRefused(
          user.id,
          await verifiedCookie(user, 'absent'),
          org.tenant.id,
          403,
          refused('EMAIL_NOT_VERIFIED'),
        );
      }
      await expectJoinRefused(user.id, cookie, 'no-such-tenant', 404, refused('NOT_JOINABLE'));
      const other = await factory.tenant({ status: 'active' });
      await expectJoinRefused(user.id, cookie, other.id, 404, refused('NOT_JOINABLE'));
      await t.dataSource.getRepository(TenantEntity).update({ id: org.tenant.id }, { status: 'suspended' });
      await expectJoinRefused(user.id, cookie, org.tenant.id, 404, refused('NOT_JOINABLE'));
      await t.dataSource.getRepository(TenantEntity).update({ id: org.tenant.id }, { status: 'active' });
      const elsewhere = await factory.member(other.id, { email: `q-${seq++}@${name}`, role: 'member' });
      await expectJoinRefused(
        elsewhere.id,
        await verifiedCookie(elsewhere),
        org.tenant.id,
        409,
        refused('MEMBER_OF_ANOTHER_ORGANISATION'),
      );
      const here = await factory.member(org.tenant.id, { email: `r-${seq++}@${name}`, role: 'member' });
      await expectJoinRefused(here.id, await verifiedCookie(here), org.tenant.id, 409, refused('ALREADY_MEMBER'));
      await t.http.patch(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie).send({ joinMode: 'off' });
      await expectJoinRefused(user.id, cookie, org.tenant.id, 404, refused('NOT_JOINABLE'));
    });

    it('cognito mode: the pool’s email_verified attribute decides, not the token’s claim', async () => {
      if (local()) return;
      const name = await verified('auto');
      const { user, cookie } = await person(name);
      await (t.testIdentity as CognitoTestIdentity).setEmailVerified(user, false);
      await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('EMAIL_NOT_VERIFIED'));
      expect((await t.http.get('/api/me').set('Cookie', cookie)).body.user.emailVerified).toBe(false);
      await (t.testIdentity as CognitoTestIdentity).setEmailVerified(user, true);
      expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
    });

    it('a removed member is refused 403 REMOVED_BY_ORGANISATION, until the organisation invites them again', async () => {
      const name = await verified('auto');
      const { user, cookie } = await person(name);
      expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
      const removed = await t.http.delete(`/api/org/users/${user.id}`).set('Cookie', org.ownerCookie);
      expect(removed.status).toBe(200);
      await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
      await sleep(5);
      const invited = await t.http
        .post('/api/org/invite')
        .set('Cookie', org.ownerCookie)
        .send({ email: user.email, role: 'member' });
      expect(invited.status).toBe(200);
      expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
    });

    it('10 parallel joins of one person give one membership', async () => {
      const name = await verified('auto');
      const { user, cookie } = await person(name);
      const answers = await Promise.all(Array.from({ length: 10 }, () => joinOrg(org.tenant.id, cookie)));
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status === 200 || status === 202).length).toBeGreaterThanOrEqual(1);
      expect(statuses.every((status) => [200, 202, 409].includes(status))).toBe(true);
      for (const res of answers.filter((answer) => answer.status === 409))
        expect(res.body).toEqual(refused('ALREADY_MEMBER'));
      expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
      const joined = (await events('member.joined')).filter((event) => event.targetId === user.id);
      expect(joined).toHaveLength(1);
    });
  });

  describe('join requests', () => {
    const requestFrom = async (name: string) => {
      const { user, cookie } = await person(name);
      const res = await joinOrg(org.tenant.id, cookie);
      return { user, cookie, id: res.body.request.id as string };
    };

    it('GET lists pending requests; approve makes a member with the role member; reject closes', async () => {
      const name = await verified('request');
      const a = await requestFrom(name);
      const b = await requestFrom(name);
      const list = await t.http.get('/api/org/join-requests?status=pending').set('Cookie', org.ownerCookie);
      expect(list.status).toBe(200);
      expect(list.body.requests.map((r: { id: string }) => r.id).sort()).toEqual([a.id, b.id].sort());
      expect(list.body.requests[0]).toEqual({
        id: expect.any(String),
        userId: expect.any(String),
        email: expect.stringContaining(`@${name}`),
        domain: name,
        status: 'pending',
        createdAt: expect.any(String),
      });
      const approved = await t.http.post(`/api/org/join-requests/${a.id}/approve`).set('Cookie', org.ownerCookie);
      expect([approved.status, approved.body.request.status]).toEqual([200, 'approved']);
      expect(await t.identity.findById(a.user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
      const rejected = await t.http.post(`/api/org/join-requests/${b.id}/reject`).set('Cookie', org.ownerCookie);
      expect([rejected.status, rejected.body.request.status]).toEqual([200, 'rejected']);
      expect((await t.identity.findById(b.user.id))?.tenantId).toBeNull();
      const twice = await t.http.post(`/api/org/join-requests/${b.id}/approve`).set('Cookie', org.ownerCookie);
      expect([twice.status, twice.body]).toEqual([409, refused('REQUEST_CLOSED')]);
      const bad = await invalidRequest(t.http.get('/api/org/join-requests?status=nope').set('Cookie', org.ownerCookie));
      expect([bad.status, bad.body]).toEqual([400, refused('INVALID_STATUS')]);
    });

    it('approving someone who joined another organisation meanwhile: 409 MEMBER_OF_ANOTHER_ORGANISATION, the request closed', async () => {
      const name = await verified('request');
      const a = await requestFrom(name);
      const other = await factory.tenant({ status: 'active' });
      await t.testIdentity.updateUser(a.user.id, { userType: 'org', tenantId: other.id, role: 'member' });
      const res = await t.http.post(`/api/org/join-requests/${a.id}/approve`).set('Cookie', org.ownerCookie);
      expect([res.status, res.body]).toEqual([409, refused('MEMBER_OF_ANOTHER_ORGANISATION')]);
      expect(await t.dataSource.getRepository(JoinRequestEntity).findOneBy({ id: a.id })).toMatchObject({
        status: 'rejected',
        pendingKey: null,
      });
      expect((await t.identity.findById(a.user.id))?.tenantId).toBe(other.id);
    });

    /** The request is closed as refused for a deleted account: rejected and audited, nobody made a member. */
    const expectClosedAsDeleted = async (a: { user: TestUser; id: string }) => {
      const res = await t.http.post(`/api/org/join-requests/${a.id}/approve`).set('Cookie', org.ownerCookie);
      expect([res.status, res.body]).toEqual([409, refused('ACCOUNT_DELETED')]);
      expect(await t.dataSource.getRepository(JoinRequestEntity).findOneBy({ id: a.id })).toMatchObject({
        status: 'rejected',
        pendingKey: null,
      });
      const closed = (await events('join_request.rejected')).filter((event) => event.targetId === a.id);
      expect(closed.map((event) => JSON.parse(event.data).reason)).toEqual(['account_deleted']);
      expect((await events('member.joined')).filter((event) => event.targetId === a.user.id)).toEqual([]);
      expect(await t.identity.findById(a.user.id)).toBeNull();
      const again = await t.http.post(`/api/org/join-requests/${a.id}/approve`).set('Cookie', org.ownerCookie);
      expect([again.status, again.body]).toEqual([409, refused('REQUEST_CLOSED')]);
    };

    it('approving one whose account an operator deleted after they asked (DELETE /api/admin/users/{id}): 409 ACCOUNT_DELETED', async () => {
      const name = await verified('request');
      const a = await requestFrom(name);
      const rootCookie = await sessionCookie(t, await factory.superAdmin());
      const deleted = await t.http.delete(`/api/admin/users/${a.user.id}`).set('Cookie', rootCookie);
      expect(deleted.status).toBe(200);
      await expectClosedAsDeleted(a);
    });

    it('cognito mode: the account deleted in the user pool (AdminDeleteUser): 409 ACCOUNT_DELETED, the request closed', async () => {
      if (local()) return;
      const name = await verified('request');
      const a = await requestFrom(name);
      await (t.testIdentity as CognitoTestIdentity).store().deleteUser(a.user.id);
      await expectClosedAsDeleted(a);
    });
  });

  describe('DELETE /api/org/domains/{name}', () => {
    it('pending requests by it are rejected, members stay, the claim is gone (404)', async () => {
      const name = await verified('auto');
      const member = await person(name);
      expect((await joinOrg(org.tenant.id, member.cookie)).status).toBe(200);
      await t.http.patch(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie).send({ joinMode: 'request' });
      const asker = await person(name);
      expect((await joinOrg(org.tenant.id, asker.cookie)).status).toBe(202);
      const res = await t.http.delete(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie);
      expect([res.status, res.body]).toEqual([200, { success: true, closedRequests: 1, membersKept: 1 }]);
      expect((await t.identity.findById(member.user.id))?.tenantId).toBe(org.tenant.id);
      expect(await t.dataSource.getRepository(JoinRequestEntity).findOneBy({ userId: asker.user.id })).toMatchObject({
        status: 'rejected',
      });
      const gone = await t.http.get(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie);
      expect([gone.status, gone.body]).toEqual([404, refused('DOMAIN_NOT_FOUND')]);
      // The name is free again.
      const other = await factory.tenant({ status: 'active' });
      expect((await claim(name, await sessionCookie(t, await factory.member(other.id)))).status).toBe(201);
    });
  });

  describe('operators: /api/admin/domains', () => {
    it("lists a name's claims across organisations; release makes one lapsed with the reason (domain.released); 400 without", async () => {
      const name = await verified();
      const root = await factory.superAdmin();
      const rootCookie = await sessionCookie(t, root);
      const list = await t.http.get(`/api/admin/domains?name=${name.toUpperCase()}`).set('Cookie', rootCookie);
      expect(list.status).toBe(200);
      expect(list.body.domains).toEqual([
        {
          tenantId: org.tenant.id,
          name,
          status: 'verified',
          verifiedAt: expect.any(String),
          createdAt: expect.any(String),
        },
      ]);
      expect((await t.http.get(`/api/admin/domains?name=${name}`).set('Cookie', org.ownerCookie)).status).toBe(403);
      for (const reason of [undefined, '', '   ']) {
        const bad = await invalidRequest(
          t.http
            .post(`/api/admin/domains/${name}/release`)
            .set('Cookie', rootCookie)
            .send({ tenantId: org.tenant.id, reason }),
        );
        expect([bad.status, bad.body]).toEqual([400, refused('REASON_REQUIRED')]);
      }
      expect((await stored(org.tenant.id, name))!.status).toBe('verified');
      const res = await t.http
        .post(`/api/admin/domains/${name}/release`)
        .set('Cookie', rootCookie)
        .send({ tenantId: org.tenant.id, reason: 'Acme Ltd proved ownership by ticket 42' });
      expect([res.status, res.body.domain.status]).toEqual([200, 'lapsed']);
      expect(await stored(org.tenant.id, name)).toMatchObject({ status: 'lapsed', heldName: null });
      const released = (await events('domain.released')).find((e) => JSON.parse(e.data).domain === name)!;
      expect(JSON.parse(released.data)).toMatchObject({ reason: 'Acme Ltd proved ownership by ticket 42' });
    });
  });
});

/** Two instances on one database: each due re-check is done by one of them. */
describe('verified domains: re-checks across instances', () => {
  const dns = new TestDns();
  // Before the instances start: they read its address.
  beforeAll(() => dns.start());
  const fleet = useTwoInstances(() => ({ env: { DNS_RESOLVER_SERVERS: dns.address, DOMAIN_RECHECK_SECONDS: '3600' } }));
  afterAll(() => dns.stop());

  it('of two instances re-checking at once, one does each check: one domain.failing per domain', async () => {
    const { first, second } = fleet;
    const tenant = await factories(first).tenant({ status: 'active' });
    const owner = await factories(first).member(tenant.id);
    const cookie = await sessionCookie(first, owner);
    const names = Array.from({ length: 5 }, (_, i) => `fleet-${Date.now().toString(36)}-${i}.test`);
    for (const name of names) {
      const added = await first.http.post('/api/org/domains').set('Cookie', cookie).send({ domain: name });
      dns.publish(added.body.domain.verification.recordName, added.body.domain.verification.recordValue);
      expect((await first.http.post(`/api/org/domains/${name}/verify`).set('Cookie', cookie)).body.domain.status).toBe(
        'verified',
      );
    }
    dns.clear();
    await first.dataSource
      .getRepository(OrgDomainEntity)
      .update({ tenantId: tenant.id }, { nextCheckAt: new Date(Date.now() - 1000) });
    const done = await Promise.all([
      first.app.get(DomainRechecks).recheckDue(),
      second.app.get(DomainRechecks).recheckDue(),
    ]);
    expect(done[0] + done[1]).toBe(5);
    const failing = await first.dataSource
      .getRepository(AuditEventEntity)
      .findBy({ type: 'domain.failing', tenantId: tenant.id });
    expect(failing).toHaveLength(5);
    expect(
      (await first.dataSource.getRepository(OrgDomainEntity).findBy({ tenantId: tenant.id })).map((d) => d.status),
    ).toEqual(Array(5).fill('failing'));
  });
});

/** Two instances on one database (one SQLite file, or MariaDB): DOMAINS_PER_ORG holds across them. */
describe('verified domains: claims across instances', () => {
  const fleet = useTwoInstances(() => ({ env: { DOMAINS_PER_ORG: '3' } }));

  it('"DOMAINS_PER_ORG": 12 parallel claims through two instances: 3 created, the others 422 DOMAIN_LIMIT', async () => {
    const { first, second } = fleet;
    const tenant = await factories(first).tenant({ status: 'active' });
    const cookie = await sessionCookie(first, await factories(first).member(tenant.id));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? second : first).http
          .post('/api/org/domains')
          .set('Cookie', cookie)
          .send({ domain: `both-${Date.now().toString(36)}-${i}.test` }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
    for (const res of answers.filter((answer) => answer.status !== 201))
      expect([res.status, res.body]).toEqual([422, refused('DOMAIN_LIMIT')]);
    expect(await first.dataSource.getRepository(OrgDomainEntity).countBy({ tenantId: tenant.id })).toBe(3);
    expect(
      await first.dataSource.getRepository(AuditEventEntity).countBy({ type: 'domain.added', tenantId: tenant.id }),
    ).toBe(3);
  });
});

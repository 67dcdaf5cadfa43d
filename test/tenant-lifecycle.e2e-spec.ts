import { randomUUID } from 'node:crypto';
import { AuditEvent, toAuditEvent } from '../src/audit/audit-event';
import {
  AuditEventEntity,
  InvitationEmailOutboxEntity,
  InvitationEntity,
  TenantEntity,
} from '../src/database/entities';
import { TenantsStore } from '../src/admin-tenants/tenants.store';
import { newOutboxRow } from '../src/mail/outbox/invitation-outbox';
import { eventually } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import {
  FORBIDDEN,
  INVITATION_GET,
  INVITATION_POST,
  ISO_8601,
  MEMBER_ERRORS,
  TENANT_ERRORS,
  UNAUTHORIZED,
} from './support/spec-bodies';
import { useTestApp, useTwoInstances } from './support/suites';
import { TestApp } from './support/test-app';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

const SUSPENDED = { error: 'Organisation is suspended' };
const ACCEPT_SUSPENDED = { success: false, error: 'ORGANISATION_SUSPENDED' };
const TENANT_NOT_FOUND = { error: 'Tenant not found' };
const TENANT_DELETED = { error: 'Tenant is deleted' };
const INVALID_STATUS = { error: 'Invalid status. Must be one of: pending_owner, active, suspended, deleted' };
const DAY = 24 * 3600 * 1000;

/** A tenant with one member of each role, each signed in. */
interface Organisation {
  tenant: TenantEntity;
  people: Record<'owner' | 'admin' | 'member', TestUser>;
  cookies: Record<'owner' | 'admin' | 'member', string>;
}

async function organisation(t: TestApp, overrides: Partial<TenantEntity> = {}): Promise<Organisation> {
  const factory = factories(t);
  const tenant = await factory.tenant({ status: 'active', ...overrides });
  const people = {
    owner: await factory.member(tenant.id, { role: 'owner' }),
    admin: await factory.member(tenant.id, { role: 'admin' }),
    member: await factory.member(tenant.id, { role: 'member' }),
  };
  const cookies = {
    owner: await sessionCookie(t, people.owner),
    admin: await sessionCookie(t, people.admin),
    member: await sessionCookie(t, people.member),
  };
  return { tenant, people, cookies };
}

/** Every org route, each with a request that its rules would let an owner through (given ids of its own tenant). */
const ORG_ROUTES: [
  string,
  (t: TestApp, org: Organisation, cookie: string) => Promise<{ status: number; body: unknown }>,
][] = [
  [
    'POST /api/org/invite',
    (t, _, cookie) =>
      t.http
        .post('/api/org/invite')
        .set('Cookie', cookie)
        .send({ email: `new-${randomUUID()}@example.com`, role: 'member' }),
  ],
  [
    'DELETE /api/org/users/{id}',
    (t, org, cookie) => t.http.delete(`/api/org/users/${org.people.member.id}`).set('Cookie', cookie),
  ],
  ['GET /api/org/members', (t, _, cookie) => t.http.get('/api/org/members').set('Cookie', cookie)],
  [
    'POST /api/org/invitations/bulk',
    (t, _, cookie) =>
      t.http
        .post('/api/org/invitations/bulk')
        .set('Cookie', cookie)
        .send({ invitations: [{ email: `new-${randomUUID()}@example.com`, role: 'member' }] }),
  ],
  [
    'PATCH /api/org/members/{id}',
    (t, org, cookie) =>
      t.http.patch(`/api/org/members/${org.people.member.id}`).set('Cookie', cookie).send({ role: 'member' }),
  ],
  ['GET /api/org/people', (t, _, cookie) => t.http.get('/api/org/people').set('Cookie', cookie)],
  ['GET /api/org/invitations', (t, _, cookie) => t.http.get('/api/org/invitations').set('Cookie', cookie)],
  [
    'DELETE /api/org/invitations/{id}',
    (t, _, cookie) => t.http.delete(`/api/org/invitations/${randomUUID()}`).set('Cookie', cookie),
  ],
  [
    'POST /api/org/invitations/{id}/resend',
    (t, _, cookie) => t.http.post(`/api/org/invitations/${randomUUID()}/resend`).set('Cookie', cookie),
  ],
  ['GET /api/org/invite/quota', (t, _, cookie) => t.http.get('/api/org/invite/quota').set('Cookie', cookie)],
  [
    'POST /api/org/domains',
    (t, _, cookie) => t.http.post('/api/org/domains').set('Cookie', cookie).send({ domain: 'suspended.example.com' }),
  ],
  ['GET /api/org/domains', (t, _, cookie) => t.http.get('/api/org/domains').set('Cookie', cookie)],
  ['GET /api/org/domains/{name}', (t, _, cookie) => t.http.get('/api/org/domains/acme.com').set('Cookie', cookie)],
  [
    'PATCH /api/org/domains/{name}',
    (t, _, cookie) => t.http.patch('/api/org/domains/acme.com').set('Cookie', cookie).send({ joinMode: 'auto' }),
  ],
  [
    'DELETE /api/org/domains/{name}',
    (t, _, cookie) => t.http.delete('/api/org/domains/acme.com').set('Cookie', cookie),
  ],
  [
    'POST /api/org/domains/{name}/verify',
    (t, _, cookie) => t.http.post('/api/org/domains/acme.com/verify').set('Cookie', cookie),
  ],
  [
    'POST /api/org/domains/{name}/rotate',
    (t, _, cookie) => t.http.post('/api/org/domains/acme.com/rotate').set('Cookie', cookie),
  ],
  ['GET /api/org/join-requests', (t, _, cookie) => t.http.get('/api/org/join-requests').set('Cookie', cookie)],
  [
    'POST /api/org/join-requests/{id}/approve',
    (t, _, cookie) => t.http.post(`/api/org/join-requests/${randomUUID()}/approve`).set('Cookie', cookie),
  ],
  [
    'POST /api/org/join-requests/{id}/reject',
    (t, _, cookie) => t.http.post(`/api/org/join-requests/${randomUUID()}/reject`).set('Cookie', cookie),
  ],
  ['GET /api/org/audit-events', (t, _, cookie) => t.http.get('/api/org/audit-events').set('Cookie', cookie)],
  ['POST /api/org/scim/tokens', (t, _, cookie) => t.http.post('/api/org/scim/tokens').set('Cookie', cookie)],
  ['GET /api/org/scim/tokens', (t, _, cookie) => t.http.get('/api/org/scim/tokens').set('Cookie', cookie)],
  [
    'DELETE /api/org/scim/tokens/{id}',
    (t, _, cookie) => t.http.delete(`/api/org/scim/tokens/${randomUUID()}`).set('Cookie', cookie),
  ],
  ['GET /api/org/scim/role-mapping', (t, _, cookie) => t.http.get('/api/org/scim/role-mapping').set('Cookie', cookie)],
  [
    'PUT /api/org/scim/role-mapping',
    (t, _, cookie) => t.http.put('/api/org/scim/role-mapping').set('Cookie', cookie).send({ Admins: 'admin' }),
  ],
  ['GET /api/org/roles', (t, _, cookie) => t.http.get('/api/org/roles').set('Cookie', cookie)],
  [
    'POST /api/org/roles',
    (t, _, cookie) =>
      t.http
        .post('/api/org/roles')
        .set('Cookie', cookie)
        .send({ key: 'recruiter', name: 'Recruiter', permissions: [] }),
  ],
  ['GET /api/org/roles/{key}', (t, _, cookie) => t.http.get('/api/org/roles/member').set('Cookie', cookie)],
  [
    'PATCH /api/org/roles/{key}',
    (t, _, cookie) => t.http.patch('/api/org/roles/recruiter').set('Cookie', cookie).send({ name: 'Hiring' }),
  ],
  ['DELETE /api/org/roles/{key}', (t, _, cookie) => t.http.delete('/api/org/roles/recruiter').set('Cookie', cookie)],
  [
    'PUT /api/org/members/{id}/roles',
    (t, org, cookie) =>
      t.http.put(`/api/org/members/${org.people.member.id}/roles`).set('Cookie', cookie).send({ roles: [] }),
  ],
  [
    'POST /api/org/sso/connections',
    (t, _, cookie) =>
      t.http
        .post('/api/org/sso/connections')
        .set('Cookie', cookie)
        .send({ type: 'oidc', issuer: 'https://idp.example.com', clientId: 'c', clientSecret: 's' }),
  ],
  ['GET /api/org/sso/connections', (t, _, cookie) => t.http.get('/api/org/sso/connections').set('Cookie', cookie)],
  ...(['get', 'patch', 'delete'] as const).map((method): (typeof ORG_ROUTES)[number] => [
    `${method.toUpperCase()} /api/org/sso/connections/{id}`,
    (t, _, cookie) => {
      const request = t.http[method](`/api/org/sso/connections/${randomUUID()}`).set('Cookie', cookie);
      return method === 'patch' ? request.send({}) : request;
    },
  ]),
  ...(['refresh', 'test'] as const).map((action): (typeof ORG_ROUTES)[number] => [
    `POST /api/org/sso/connections/{id}/${action}`,
    (t, _, cookie) => t.http.post(`/api/org/sso/connections/${randomUUID()}/${action}`).set('Cookie', cookie),
  ]),
  ['GET /api/org/sso', (t, _, cookie) => t.http.get('/api/org/sso').set('Cookie', cookie)],
  [
    'PATCH /api/org/sso',
    (t, _, cookie) => t.http.patch('/api/org/sso').set('Cookie', cookie).send({ enforced: false }),
  ],
  [
    'GET /api/org/sso/connections/{id}/attempts',
    (t, _, cookie) => t.http.get(`/api/org/sso/connections/${randomUUID()}/attempts`).set('Cookie', cookie),
  ],
  ...(['get', 'delete'] as const).map((method): (typeof ORG_ROUTES)[number] => [
    `${method.toUpperCase()} /api/org/members/{id}/sessions`,
    (t, _, cookie) => t.http[method](`/api/org/members/${randomUUID()}/sessions`).set('Cookie', cookie),
  ]),
  [
    'POST /api/org/permissions/check',
    (t, _, cookie) =>
      t.http
        .post('/api/org/permissions/check')
        .set('Cookie', cookie)
        .send({ permissions: ['members:read'] }),
  ],
  [
    'POST /api/org/setup-links',
    (t, _, cookie) =>
      t.http
        .post('/api/org/setup-links')
        .set('Cookie', cookie)
        .send({ intents: ['sso'] }),
  ],
  ['GET /api/org/setup-links', (t, _, cookie) => t.http.get('/api/org/setup-links').set('Cookie', cookie)],
  [
    'DELETE /api/org/setup-links/{id}',
    (t, _, cookie) => t.http.delete(`/api/org/setup-links/${randomUUID()}`).set('Cookie', cookie),
  ],
];

describe('the tenant lifecycle', () => {
  // PUBLIC_BASE_URL: single sign-on's routes are configured in cognito mode too, as every org route answers here.
  const { t, factory } = useTestApp({ env: { PUBLIC_BASE_URL: 'http://tenants.test' } });
  let root: TestUser;
  let rootCookie: string;

  beforeAll(async () => {
    root = await factory.superAdmin();
    rootCookie = await sessionCookie(t, root);
  });

  const admin = {
    read: (id: string, cookie = rootCookie) => t.http.get(`/api/admin/tenants/${id}`).set('Cookie', cookie),
    update: (id: string, body: unknown, cookie = rootCookie) =>
      t.http
        .patch(`/api/admin/tenants/${id}`)
        .set('Cookie', cookie)
        .send(body as object),
    suspend: (id: string, body?: unknown, cookie = rootCookie) => {
      const request = t.http.post(`/api/admin/tenants/${id}/suspend`).set('Cookie', cookie);
      return body === undefined ? request : request.send(body as object);
    },
    reactivate: (id: string, cookie = rootCookie) =>
      t.http.post(`/api/admin/tenants/${id}/reactivate`).set('Cookie', cookie),
    delete: (id: string, cookie = rootCookie) => t.http.delete(`/api/admin/tenants/${id}`).set('Cookie', cookie),
    list: (query: Record<string, string | string[]> = {}, cookie = rootCookie) =>
      t.http.get('/api/admin/tenants').query(query).set('Cookie', cookie),
  };
  /** The tenant's row, the lifecycle's columns included. */
  const tenantRow = (id: string) => t.app.get(TenantsStore).find(id);
  const invitationRow = (id: string) => t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id });
  const eventsOf = async (tenantId: string): Promise<AuditEvent[]> =>
    (
      await t.dataSource.getRepository(AuditEventEntity).find({ where: { tenantId }, order: { occurredAt: 'ASC' } })
    ).map(toAuditEvent);
  const rootActor = () => ({ id: root.id, email: root.email });
  const spec = (tenant: TenantEntity) => ({
    id: tenant.id,
    name: tenant.name,
    type: tenant.type,
    status: tenant.status,
    createdAt: tenant.createdAt.toISOString(),
  });

  /** What a refusal must leave as it was: the tenant's row, its members, its invitations and its events. */
  async function state(tenantId: string) {
    return {
      tenant: await tenantRow(tenantId),
      members: await t.identity.listTenantMembers(tenantId, undefined, 100),
      invitations: await t.dataSource
        .getRepository(InvitationEntity)
        .find({ where: { tenantId }, order: { id: 'ASC' } }),
      events: await eventsOf(tenantId),
    };
  }

  describe('authorisation (spec section 5: the other /api/admin routes)', () => {
    const ROUTES: [string, (id: string, cookie: string) => Promise<{ status: number; body: unknown }>][] = [
      ['GET', (id, cookie) => admin.read(id, cookie)],
      ['PATCH', (id, cookie) => admin.update(id, { name: 'Taken over' }, cookie)],
      ['POST suspend', (id, cookie) => admin.suspend(id, { reason: 'x' }, cookie)],
      ['POST reactivate', (id, cookie) => admin.reactivate(id, cookie)],
      ['DELETE', (id, cookie) => admin.delete(id, cookie)],
    ];

    it.each(ROUTES)(
      "%s: no session, a signed-in user, and the tenant's own owner are 403 Forbidden; nothing changes",
      async (_, call) => {
        const org = await organisation(t);
        if (_ === 'POST reactivate') await admin.suspend(org.tenant.id);
        const before = await state(org.tenant.id);
        const stranger = await sessionCookie(t, await factory.user());
        for (const cookie of ['', stranger, org.cookies.owner]) {
          const res = await call(org.tenant.id, cookie);
          expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
        }
        expect(await state(org.tenant.id)).toEqual(before);
      },
    );

    it('the spec list keeps its own rule: no session is 401', async () => {
      const res = await t.http.get('/api/admin/tenants').query({ status: 'active' });
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
    });

    it.each(ROUTES)('%s of an unknown tenant is 404 {"error":"Tenant not found"}', async (_, call) => {
      const res = await call(randomUUID(), rootCookie);
      expect([res.status, res.body]).toEqual([404, TENANT_NOT_FOUND]);
    });
  });

  describe('GET /api/admin/tenants/{id}', () => {
    it('answers the tenant, its members by role and its pending invitations', async () => {
      const tenant = await factory.tenant({
        name: 'Globex',
        type: 'business',
        createdAt: new Date(Date.UTC(2026, 0, 2)),
      });
      await factory.member(tenant.id, { role: 'owner' });
      for (let i = 0; i < 2; i++) await factory.member(tenant.id, { role: 'admin' });
      for (let i = 0; i < 3; i++) await factory.member(tenant.id, { role: 'member' });
      await factory.member((await factory.tenant()).id, { role: 'member' });
      const now = Date.now();
      for (const overrides of [
        {},
        { role: 'admin' },
        { expiresAt: new Date(now - DAY) },
        { status: 'expired' as const, expiresAt: new Date(now - DAY) },
        { status: 'accepted' as const },
        { status: 'revoked' as const },
      ]) {
        await factory.invitation({ tenantId: tenant.id, ...overrides });
      }
      await factory.invitation();

      const res = await admin.read(tenant.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        tenant: {
          id: tenant.id,
          name: 'Globex',
          type: 'business',
          status: 'pending_owner',
          createdAt: '2026-01-02T00:00:00.000Z',
        },
        members: { owner: 1, admin: 2, member: 3 },
        pendingInvitations: 2,
      });
    });

    it('a tenant with nobody yet has zero counts', async () => {
      const tenant = await factory.tenant();
      expect((await admin.read(tenant.id)).body).toEqual({
        tenant: spec(tenant),
        members: { owner: 0, admin: 0, member: 0 },
        pendingInvitations: 0,
      });
    });
  });

  describe('PATCH /api/admin/tenants/{id}', () => {
    it('renames: 200 {success, tenant}, stored, one tenant.updated event with what changed and the super-admin as actor', async () => {
      const tenant = await factory.tenant({ name: 'Acme', type: 'business' });
      const res = await admin.update(tenant.id, { name: '  Acme Ltd  ' });
      expect([res.status, res.body]).toEqual([200, { success: true, tenant: { ...spec(tenant), name: 'Acme Ltd' } }]);
      expect(await tenantRow(tenant.id)).toMatchObject({ name: 'Acme Ltd', type: 'business', status: tenant.status });
      expect(await eventsOf(tenant.id)).toEqual([
        expect.objectContaining({
          type: 'tenant.updated',
          tenantId: tenant.id,
          actor: rootActor(),
          target: { type: 'tenant', id: tenant.id },
          data: { name: { before: 'Acme', after: 'Acme Ltd' } },
        }),
      ]);
    });

    it('retypes, or both; a field given with its value as it is changes nothing and records nothing', async () => {
      const tenant = await factory.tenant({ name: 'Acme', type: 'business' });
      expect((await admin.update(tenant.id, { type: 'charity' })).body.tenant).toMatchObject({
        name: 'Acme',
        type: 'charity',
      });
      expect((await admin.update(tenant.id, { name: 'Acme Trust', type: 'nonprofit' })).body.tenant).toMatchObject({
        name: 'Acme Trust',
        type: 'nonprofit',
      });
      const same = await admin.update(tenant.id, { name: 'Acme Trust', type: 'nonprofit' });
      expect([same.status, same.body]).toEqual([
        200,
        { success: true, tenant: { ...spec(tenant), name: 'Acme Trust', type: 'nonprofit' } },
      ]);
      expect((await eventsOf(tenant.id)).map((event) => event.data)).toEqual([
        { type: { before: 'business', after: 'charity' } },
        { name: { before: 'Acme', after: 'Acme Trust' }, type: { before: 'charity', after: 'nonprofit' } },
      ]);
    });

    it.each([
      ['an empty body', {}, { error: 'Name or type is required' }],
      ['an empty name', { name: '' }, TENANT_ERRORS.nameRequired],
      ['a white-space name', { name: '   ' }, TENANT_ERRORS.nameRequired],
      ['a null name', { name: null }, TENANT_ERRORS.nameRequired],
      ['a name that is not a string', { name: 5 }, { error: 'Name must be a string' }],
      ['a name over 255 characters', { name: 'x'.repeat(256) }, { error: 'Name must be at most 255 characters' }],
      ['an empty type', { type: '' }, TENANT_ERRORS.typeRequired],
      ['a null type', { name: 'Fine', type: null }, TENANT_ERRORS.typeRequired],
      ['a type outside the list', { type: 'company' }, TENANT_ERRORS.invalidType],
      ['an array body', [{ name: 'A' }], { error: 'Request body must be a JSON object' }],
    ])("%s is 400 under the create's rules, and changes nothing", async (_, body, error) => {
      const tenant = await factory.tenant();
      const before = await state(tenant.id);
      const res = await invalidRequest(() => admin.update(tenant.id, body));
      expect([res.status, res.body]).toEqual([400, error]);
      expect(await state(tenant.id)).toEqual(before);
    });

    it('a bad body is 400 before an unknown id is 404', async () => {
      expect((await invalidRequest(() => admin.update(randomUUID(), { type: 'company' }))).status).toBe(400);
    });

    it('a suspended tenant can be renamed and stays suspended; a deleted one is 409 and keeps its name', async () => {
      const tenant = await factory.tenant({ status: 'active' });
      await admin.suspend(tenant.id);
      expect((await admin.update(tenant.id, { name: 'Renamed' })).body.tenant).toMatchObject({
        name: 'Renamed',
        status: 'suspended',
      });
      await admin.delete(tenant.id);
      const before = await state(tenant.id);
      const res = await admin.update(tenant.id, { name: 'After' });
      expect([res.status, res.body]).toEqual([409, TENANT_DELETED]);
      expect(await state(tenant.id)).toEqual(before);
    });

    it('the invitation page and GET /api/invitations/{token} show the new name at once', async () => {
      const tenant = await factory.tenant({ name: 'Old name' });
      const invitation = await factory.invitation({ tenantId: tenant.id });
      expect((await t.http.get(`/api/invitations/${invitation.id}`)).body.tenantName).toBe('Old name');
      await admin.update(tenant.id, { name: 'New name' });
      expect((await t.http.get(`/api/invitations/${invitation.id}`)).body.tenantName).toBe('New name');
      expect((await t.http.get(`/invitations/${invitation.id}`)).text).toContain('New name');
    });
  });

  describe('POST /api/admin/tenants/{id}/suspend and /reactivate', () => {
    it('suspends: 200 with status suspended, one tenant.suspended event with the reason', async () => {
      const { tenant } = await organisation(t);
      const res = await admin.suspend(tenant.id, { reason: '  Invoice 114 unpaid ' });
      expect([res.status, res.body]).toEqual([
        200,
        { success: true, tenant: { ...spec(tenant), status: 'suspended' } },
      ]);
      expect(await tenantRow(tenant.id)).toMatchObject({ status: 'suspended', statusBeforeSuspension: 'active' });
      expect(await eventsOf(tenant.id)).toEqual([
        expect.objectContaining({
          type: 'tenant.suspended',
          actor: rootActor(),
          target: { type: 'tenant', id: tenant.id },
          data: { reason: 'Invoice 114 unpaid', statusBefore: 'active' },
        }),
      ]);
    });

    it.each([
      ['no body', undefined],
      ['an empty body', {}],
      ['a null reason', { reason: null }],
      ['an empty reason', { reason: '' }],
    ])('the reason is optional: %s records reason null', async (_, body) => {
      const tenant = await factory.tenant({ status: 'active' });
      expect((await admin.suspend(tenant.id, body)).status).toBe(200);
      expect((await eventsOf(tenant.id))[0].data).toEqual({ reason: null, statusBefore: 'active' });
    });

    it.each(['owner', 'admin', 'member'] as const)(
      'every org route answers the suspended tenant\'s %s 403 {"error":"Organisation is suspended"}',
      async (role) => {
        const org = await organisation(t);
        const other = await organisation(t);
        await admin.suspend(org.tenant.id);
        for (const [route, call] of ORG_ROUTES) {
          const res = await call(t, org, org.cookies[role]);
          expect([route, res.status, res.body]).toEqual([route, 403, SUSPENDED]);
        }
        // Another tenant's people are not touched.
        expect((await ORG_ROUTES[2][1](t, other, other.cookies[role])).status).toBe(200);
      },
    );

    it('the refusals of a spec state stay first: no session 401, not an organisation user 403', async () => {
      const org = await organisation(t);
      await admin.suspend(org.tenant.id);
      const noSession = await t.http.get('/api/org/members');
      expect([noSession.status, noSession.body]).toEqual([401, UNAUTHORIZED]);
      const outsider = await sessionCookie(t, await factory.user({ tenantId: org.tenant.id, role: 'owner' }));
      const notOrg = await t.http.get('/api/org/members').set('Cookie', outsider);
      expect([notOrg.status, notOrg.body]).toEqual([403, MEMBER_ERRORS.notOrgUser]);
    });

    it('its invitations cannot be accepted (403 ORGANISATION_SUSPENDED, left pending) but validate; spec refusals come first', async () => {
      const { tenant } = await organisation(t);
      const pending = await factory.invitation({ tenantId: tenant.id });
      const accepted = await factory.invitation({ tenantId: tenant.id, status: 'accepted' });
      const late = await factory.invitation({ tenantId: tenant.id, expiresAt: new Date(Date.now() - DAY) });
      await admin.suspend(tenant.id);

      const refused = await t.http.post(`/api/invitations/${pending.id}`);
      expect([refused.status, refused.body]).toEqual([403, ACCEPT_SUSPENDED]);
      expect((await invitationRow(pending.id)).status).toBe('pending');
      expect((await t.http.get(`/api/invitations/${pending.id}`)).body).toMatchObject({
        valid: true,
        tenantId: tenant.id,
      });
      expect((await t.http.post(`/api/invitations/${accepted.id}`)).body).toEqual(INVITATION_POST.alreadyUsed);
      expect((await t.http.post(`/api/invitations/${late.id}`)).body).toEqual(INVITATION_POST.expired);
      expect((await t.http.post(`/api/invitations/${randomUUID()}`)).body).toEqual(INVITATION_POST.invalid);
      expect((await eventsOf(tenant.id)).map((event) => event.type)).toEqual(['tenant.suspended']);
    });

    it('the invitation page says that the organisation is suspended, and its Accept button is refused', async () => {
      const { tenant } = await organisation(t);
      const invitation = await factory.invitation({ tenantId: tenant.id });
      await admin.suspend(tenant.id);
      const page = await t.http.get(`/invitations/${invitation.id}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('This organisation is suspended');
      expect(page.text).not.toContain('Accept invitation');
      const accepted = await t.http.post(`/invitations/${invitation.id}`);
      expect(accepted.status).toBe(403);
      expect(accepted.text).toContain('This organisation is suspended');
      expect((await invitationRow(invitation.id)).status).toBe('pending');
    });

    it('reactivates: the status from before, members, roles and pending invitations as they were; a tenant.reactivated event', async () => {
      const org = await organisation(t);
      const pending = await factory.invitation({ tenantId: org.tenant.id });
      const expiring = await factory.invitation({ tenantId: org.tenant.id });
      const before = await admin.read(org.tenant.id);
      await admin.suspend(org.tenant.id);
      // It expires during the suspension.
      await t.dataSource
        .getRepository(InvitationEntity)
        .update({ id: expiring.id }, { expiresAt: new Date(Date.now() - 1_000) });

      const res = await admin.reactivate(org.tenant.id);
      expect([res.status, res.body]).toEqual([200, { success: true, tenant: spec(org.tenant) }]);
      expect(await tenantRow(org.tenant.id)).toMatchObject({ status: 'active', statusBeforeSuspension: null });
      expect((await admin.read(org.tenant.id)).body).toEqual({
        ...before.body,
        pendingInvitations: before.body.pendingInvitations - 1,
      });
      // The lists (a GET of one named resource that does not exist answers 404).
      for (const [route, call] of ORG_ROUTES.filter(([route]) => route.startsWith('GET') && !route.includes('{'))) {
        expect([route, (await call(t, org, org.cookies.owner)).status]).toEqual([route, 200]);
      }
      expect((await ORG_ROUTES[0][1](t, org, org.cookies.owner)).status).toBe(200);
      expect((await t.http.get(`/api/invitations/${expiring.id}`)).body).toEqual(INVITATION_GET.expired);
      expect((await t.http.post(`/api/invitations/${pending.id}`)).body).toEqual({
        success: true,
        tenantId: org.tenant.id,
        role: 'member',
      });
      expect((await eventsOf(org.tenant.id)).filter((event) => event.type.startsWith('tenant.'))).toEqual([
        expect.objectContaining({ type: 'tenant.suspended' }),
        expect.objectContaining({
          type: 'tenant.reactivated',
          actor: rootActor(),
          target: { type: 'tenant', id: org.tenant.id },
          data: { status: 'active' },
        }),
      ]);
    });

    it('a tenant suspended while pending_owner is pending_owner again', async () => {
      const tenant = await factory.tenant();
      await admin.suspend(tenant.id);
      expect((await admin.reactivate(tenant.id)).body.tenant.status).toBe('pending_owner');
      expect((await eventsOf(tenant.id)).map((event) => event.data)).toEqual([
        { reason: null, statusBefore: 'pending_owner' },
        { status: 'pending_owner' },
      ]);
    });

    it('its pending invitation e-mails wait, without using up attempts, and go out once it is reactivated', async () => {
      const { tenant } = await organisation(t);
      await admin.suspend(tenant.id);
      const invitation = await factory.invitation({ tenantId: tenant.id });
      const outbox = t.dataSource.getRepository(InvitationEmailOutboxEntity);
      const email = {
        to: invitation.email,
        tenantName: 'Acme',
        inviterEmail: 'owner@example.com',
        role: 'member',
        expiresAt: invitation.expiresAt,
        link: 'https://x/invitations/t',
      };
      await outbox.insert(newOutboxRow(randomUUID(), invitation, email));
      await eventually(async () =>
        expect(await outbox.findOneByOrFail({ invitationId: invitation.id })).toMatchObject({
          lastError: 'the organisation is suspended',
        }),
      );
      // Several polls later (every 200 ms in the suites): still waiting, no attempt counted.
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await outbox.findOneByOrFail({ invitationId: invitation.id })).toMatchObject({
        status: 'pending',
        attempts: 0,
      });

      await admin.reactivate(tenant.id);
      await eventually(async () =>
        expect(await outbox.findOneByOrFail({ invitationId: invitation.id })).toMatchObject({
          status: 'sent',
          attempts: 1,
        }),
      );
    });

    it.each([
      [
        'suspending a suspended tenant',
        'suspended',
        (id: string) => admin.suspend(id),
        { error: 'Tenant is already suspended' },
      ],
      ['suspending a deleted tenant', 'deleted', (id: string) => admin.suspend(id), TENANT_DELETED],
      [
        'reactivating an active tenant',
        'active',
        (id: string) => admin.reactivate(id),
        { error: 'Tenant is not suspended' },
      ],
      [
        'reactivating a pending_owner tenant',
        'pending_owner',
        (id: string) => admin.reactivate(id),
        { error: 'Tenant is not suspended' },
      ],
      ['reactivating a deleted tenant', 'deleted', (id: string) => admin.reactivate(id), TENANT_DELETED],
    ])('%s is 409 and changes nothing', async (_, status, call, error) => {
      const { tenant } = await organisation(t);
      if (status === 'suspended') await admin.suspend(tenant.id);
      if (status === 'deleted') await admin.delete(tenant.id);
      if (status === 'pending_owner')
        await t.dataSource.getRepository(TenantEntity).update({ id: tenant.id }, { status });
      const before = await state(tenant.id);
      const res = await call(tenant.id);
      expect([res.status, res.body]).toEqual([409, error]);
      expect(await state(tenant.id)).toEqual(before);
    });

    it.each([
      ['a reason that is not a string', { reason: 42 }, { error: 'Reason must be a string' }],
      ['a reason over 500 characters', { reason: 'x'.repeat(501) }, { error: 'Reason must be at most 500 characters' }],
      ['malformed JSON', '{"reason":', { error: 'Malformed JSON body' }],
    ])('suspending with %s is 400 and changes nothing', async (_, body, error) => {
      const tenant = await factory.tenant({ status: 'active' });
      const before = await state(tenant.id);
      const request = invalidRequest(t.http.post(`/api/admin/tenants/${tenant.id}/suspend`).set('Cookie', rootCookie));
      const res =
        typeof body === 'string'
          ? await request.set('Content-Type', 'application/json').send(body)
          : await request.send(body);
      expect([res.status, res.body]).toEqual([400, error]);
      expect(await state(tenant.id)).toEqual(before);
    });
  });

  describe('DELETE /api/admin/tenants/{id}', () => {
    it('detaches every member (accounts kept), revokes open invitations, keeps the row as deleted, one tenant.deleted event', async () => {
      const org = await organisation(t, { name: 'Doomed' });
      const bystander = await organisation(t);
      const pending = await factory.invitation({ tenantId: org.tenant.id });
      const expired = await factory.invitation({
        tenantId: org.tenant.id,
        status: 'expired',
        expiresAt: new Date(Date.now() - DAY),
      });
      const late = await factory.invitation({ tenantId: org.tenant.id, expiresAt: new Date(Date.now() - DAY) });
      const accepted = await factory.invitation({ tenantId: org.tenant.id, status: 'accepted' });
      const elsewhere = await factory.invitation({ tenantId: bystander.tenant.id });

      const res = await admin.delete(org.tenant.id);
      expect([res.status, res.body]).toEqual([200, { success: true }]);

      for (const person of Object.values(org.people)) {
        expect(await t.identity.findById(person.id)).toMatchObject({
          id: person.id,
          email: person.email,
          tenantId: null,
          role: null,
        });
      }
      expect(await t.identity.listTenantMembers(org.tenant.id, undefined, 10)).toEqual([]);
      expect(await t.identity.listTenantMembers(bystander.tenant.id, undefined, 10)).toHaveLength(3);
      for (const invitation of [pending, expired, late])
        expect((await invitationRow(invitation.id)).status).toBe('revoked');
      expect((await invitationRow(accepted.id)).status).toBe('accepted');
      expect((await invitationRow(elsewhere.id)).status).toBe('pending');
      expect(await tenantRow(org.tenant.id)).toMatchObject({
        name: 'Doomed',
        status: 'deleted',
        deletedAt: expect.any(Date),
      });
      expect(await eventsOf(org.tenant.id)).toEqual([
        expect.objectContaining({
          type: 'tenant.deleted',
          actor: rootActor(),
          target: { type: 'tenant', id: org.tenant.id },
          data: { name: 'Doomed', membersDetached: 3, invitationsRevoked: 3 },
        }),
      ]);

      expect((await admin.read(org.tenant.id)).body).toEqual({
        tenant: { ...spec(org.tenant), status: 'deleted' },
        members: { owner: 0, admin: 0, member: 0 },
        pendingInvitations: 0,
      });
      const listed = (await admin.list()).body.tenants.map((tenant: { id: string }) => tenant.id);
      expect(listed).not.toContain(org.tenant.id);
      expect(listed).toContain(bystander.tenant.id);

      const again = await admin.delete(org.tenant.id);
      expect([again.status, again.body]).toEqual([409, TENANT_DELETED]);
      expect(await eventsOf(org.tenant.id)).toHaveLength(1);

      // Its former members are no organisation's users; its links are dead.
      expect((await ORG_ROUTES[2][1](t, org, org.cookies.member)).body).toEqual(MEMBER_ERRORS.notOrgUser);
      expect((await t.http.post(`/api/invitations/${pending.id}`)).body).toEqual(INVITATION_POST.invalid);
    });

    it('a suspended tenant can be deleted', async () => {
      const org = await organisation(t);
      await admin.suspend(org.tenant.id);
      expect((await admin.delete(org.tenant.id)).status).toBe(200);
      expect(await tenantRow(org.tenant.id)).toMatchObject({ status: 'deleted', statusBeforeSuspension: null });
    });

    it('a deletion cut short shuts the tenant out meanwhile, and the next DELETE finishes it', async () => {
      const org = await organisation(t);
      const invitation = await factory.invitation({ tenantId: org.tenant.id });
      // As left by a DELETE whose process died after its first step.
      await t.dataSource.getRepository(TenantEntity).update({ id: org.tenant.id }, { status: 'deleted' });

      for (const [route, call] of ORG_ROUTES) {
        const res = await call(t, org, org.cookies.owner);
        expect([route, res.status, res.body]).toEqual([
          route,
          403,
          { error: expect.stringMatching(/^Only organisation users can /) },
        ]);
      }
      expect((await t.http.post(`/api/invitations/${invitation.id}`)).body).toEqual(INVITATION_POST.invalid);
      expect((await invitationRow(invitation.id)).status).toBe('pending');
      expect((await admin.list()).body.tenants.map((tenant: { id: string }) => tenant.id)).not.toContain(org.tenant.id);

      const res = await admin.delete(org.tenant.id);
      expect([res.status, res.body]).toEqual([200, { success: true }]);
      expect(await t.identity.listTenantMembers(org.tenant.id, undefined, 10)).toEqual([]);
      expect((await invitationRow(invitation.id)).status).toBe('revoked');
      expect((await eventsOf(org.tenant.id)).map((event) => event.data)).toEqual([
        { name: org.tenant.name, membersDetached: 3, invitationsRevoked: 1 },
      ]);
      expect((await admin.delete(org.tenant.id)).status).toBe(409);
    });

    it('two DELETEs at once: one 200, one 409, one event, nothing left behind', async () => {
      const org = await organisation(t);
      const answers = await Promise.all([admin.delete(org.tenant.id), admin.delete(org.tenant.id)]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
      expect(await t.identity.listTenantMembers(org.tenant.id, undefined, 10)).toEqual([]);
      expect((await eventsOf(org.tenant.id)).map((event) => event.type)).toEqual(['tenant.deleted']);
    });
  });

  describe('GET /api/admin/tenants?status=', () => {
    let byStatus: Record<string, string>;
    const ids = (res: { body: { tenants: { id: string }[] } }) => res.body.tenants.map((tenant) => tenant.id);
    const ours = (res: { body: { tenants: { id: string }[] } }) =>
      ids(res)
        .filter((id) => Object.values(byStatus).includes(id))
        .sort();
    const idsOf = (...statuses: string[]) => statuses.map((status) => byStatus[status]).sort();

    beforeAll(async () => {
      byStatus = {};
      for (const status of ['pending_owner', 'active', 'suspended', 'deleted'])
        byStatus[status] = (await factory.tenant({ status })).id;
    });

    it('without the parameter: the spec answer, every tenant but the deleted ones', async () => {
      const res = await admin.list();
      expect(res.status).toBe(200);
      expect(ours(res)).toEqual(idsOf('pending_owner', 'active', 'suspended'));
      expect(Object.keys(res.body)).toEqual(['tenants']);
    });

    it('other parameters than status, limit and cursor (paging: admin-tenants.e2e-spec) are ignored, as before', async () => {
      expect(ours(await admin.list({ page: '2', state: 'deleted' }))).toEqual(
        idsOf('pending_owner', 'active', 'suspended'),
      );
    });

    it.each([['pending_owner'], ['active'], ['suspended'], ['deleted']])('status=%s: those only', async (status) => {
      const res = await admin.list({ status });
      expect(res.status).toBe(200);
      expect(ours(res)).toEqual(idsOf(status));
      expect(res.body.tenants.every((tenant: { status: string }) => tenant.status === status)).toBe(true);
    });

    it('repeated: any of them, oldest first', async () => {
      const res = await admin.list({ status: ['suspended', 'deleted'] });
      expect(ours(res)).toEqual(idsOf('suspended', 'deleted'));
      const times = res.body.tenants.map((tenant: { createdAt: string }) => tenant.createdAt);
      expect(times).toEqual([...times].sort());
      expect(res.body.tenants[0]).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        type: expect.any(String),
        status: expect.any(String),
        createdAt: expect.stringMatching(ISO_8601),
      });
    });

    it.each([['bogus'], [''], ['Active'], ['active,suspended']])(
      'an unknown value %p is 400, naming the allowed ones',
      async (status) => {
        const res = await invalidRequest(() => admin.list({ status: ['active', status] }));
        expect([res.status, res.body]).toEqual([400, INVALID_STATUS]);
      },
    );
  });

  describe('the API document', () => {
    type Operation = {
      security?: unknown[];
      responses: Record<
        string,
        { content?: { 'application/json': { examples?: Record<string, { value: unknown }> } } }
      >;
    };
    let paths: Record<string, Record<string, Operation>>;
    const examples = (op: Operation, status: string) =>
      Object.values(op.responses[status]?.content?.['application/json'].examples ?? {}).map((example) => example.value);
    beforeAll(async () => {
      paths = (await t.http.get('/api/openapi.json')).body.paths;
    });

    it.each([
      ['get', '/api/admin/tenants/{id}', ['200', '403', '404', '500']],
      ['patch', '/api/admin/tenants/{id}', ['200', '400', '403', '404', '409', '500']],
      ['delete', '/api/admin/tenants/{id}', ['200', '403', '404', '409', '500']],
      ['post', '/api/admin/tenants/{id}/suspend', ['200', '400', '403', '404', '409', '500']],
      ['post', '/api/admin/tenants/{id}/reactivate', ['200', '403', '404', '409', '500']],
    ])('lists %s %s, behind the session, with each status it answers', (method, path, statuses) => {
      const op = paths[path][method];
      expect(op.security).toEqual([{ session: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(statuses));
      // Beside the route's own 403, a cookie-carrying change from an Origin not in ALLOWED_ORIGINS.
      expect(examples(op, '403')).toEqual([FORBIDDEN, ...(method === 'get' ? [] : [{ error: 'Origin not allowed' }])]);
      expect(examples(op, '404')).toEqual([TENANT_NOT_FOUND]);
    });

    it('the list documents ?status= and its 400; the accept its 403; every org route its suspended 403', () => {
      expect(examples(paths['/api/admin/tenants'].get, '400')).toEqual([
        INVALID_STATUS,
        { error: 'Invalid limit. Must be an integer from 1 to 100' },
        { error: 'Invalid cursor' },
        { error: 'Host not allowed' },
      ]);
      expect(examples(paths['/api/invitations/{token}'].post, '403')).toEqual([ACCEPT_SUSPENDED]);
      const orgOperations = Object.entries(paths)
        .filter(([path]) => path.startsWith('/api/org/'))
        .flatMap(([, methods]) => Object.values(methods));
      expect(orgOperations).toHaveLength(ORG_ROUTES.length);
      for (const op of orgOperations) expect(examples(op, '403')).toContainEqual(SUSPENDED);
    });
  });
});

/** The suspension holds from the next request on every instance: two instances on one database. */
describe('the tenant lifecycle across two instances', () => {
  // A short lifetime of the cached tenant names, to see a rename reach the other instance.
  const { first, second } = useTwoInstances(() => ({ env: { TENANT_NAME_CACHE_SECONDS: '1' } }));

  it('suspended through one, refused by the other at once; reactivated through the other, served by the first at once', async () => {
    const factory = factories(first);
    const rootCookie = await sessionCookie(first, await factory.superAdmin());
    const org = await organisation(first);
    const invitation = await factory.invitation({ tenantId: org.tenant.id });
    const members = (app: TestApp) => app.http.get('/api/org/members').set('Cookie', org.cookies.member);
    expect((await members(second)).status).toBe(200);

    expect(
      (await first.http.post(`/api/admin/tenants/${org.tenant.id}/suspend`).set('Cookie', rootCookie)).status,
    ).toBe(200);
    const refused = await members(second);
    expect([refused.status, refused.body]).toEqual([403, SUSPENDED]);
    expect((await second.http.post(`/api/invitations/${invitation.id}`)).body).toEqual(ACCEPT_SUSPENDED);
    expect(
      (await second.http.get(`/api/admin/tenants/${org.tenant.id}`).set('Cookie', rootCookie)).body.tenant.status,
    ).toBe('suspended');

    expect(
      (await second.http.post(`/api/admin/tenants/${org.tenant.id}/reactivate`).set('Cookie', rootCookie)).status,
    ).toBe(200);
    expect((await members(first)).status).toBe(200);
    expect((await first.http.post(`/api/invitations/${invitation.id}`)).status).toBe(200);
  });

  it('deleted through one: the other refuses its members and its invitations at once', async () => {
    const factory = factories(first);
    const rootCookie = await sessionCookie(first, await factory.superAdmin());
    const org = await organisation(first);
    const invitation = await factory.invitation({ tenantId: org.tenant.id });
    expect((await first.http.delete(`/api/admin/tenants/${org.tenant.id}`).set('Cookie', rootCookie)).status).toBe(200);
    expect((await second.http.get('/api/org/members').set('Cookie', org.cookies.owner)).body).toEqual(
      MEMBER_ERRORS.notOrgUser,
    );
    expect((await second.http.post(`/api/invitations/${invitation.id}`)).body).toEqual(INVITATION_POST.invalid);
    expect((await second.http.delete(`/api/admin/tenants/${org.tenant.id}`).set('Cookie', rootCookie)).status).toBe(
      409,
    );
  });

  it('renamed through one: shown at once there, and on the other once its cached name lapses (TENANT_NAME_CACHE_SECONDS)', async () => {
    const factory = factories(first);
    const rootCookie = await sessionCookie(first, await factory.superAdmin());
    const tenant = await factory.tenant({ name: 'Before' });
    const invitation = await factory.invitation({ tenantId: tenant.id });
    const nameOn = async (app: TestApp) => (await app.http.get(`/api/invitations/${invitation.id}`)).body.tenantName;
    expect([await nameOn(first), await nameOn(second)]).toEqual(['Before', 'Before']);
    await first.http.patch(`/api/admin/tenants/${tenant.id}`).set('Cookie', rootCookie).send({ name: 'After' });
    expect(await nameOn(first)).toBe('After');
    await eventually(async () => expect(await nameOn(second)).toBe('After'), { timeoutMs: 3_000, intervalMs: 100 });
  });
});

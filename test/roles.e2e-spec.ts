import { OrgRoleEntity, OrgRolePermissionEntity, ProductPermissionEntity } from '../src/database/entities';
import { GrantsStore } from '../src/permissions/grants.store';
import { sessionCookie } from './support/factories';
import { defineRole, eventsOf, heldRoles, roleKeys, setRoles } from './support/roles';
import { INVITE_ERRORS, ORG_INVITATION_ERRORS, REMOVE_MEMBER_ERRORS, UNAUTHORIZED } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

/** docs/roles.md: the service's permissions, as the three system roles hold them. */
const SERVICE = [
  'audit:read',
  'domains:manage',
  'invitations:create',
  'invitations:read',
  'invitations:revoke',
  'join_requests:decide',
  'members:read',
  'members:remove',
  'members:set_role',
  'roles:manage',
  'scim:manage',
  'sessions:revoke',
  'setup_links:manage',
  'sso:manage',
];
const OWNERS_ONLY = ['roles:manage', 'scim:manage', 'setup_links:manage', 'sso:manage'];
const ADMIN = SERVICE.filter((key) => !OWNERS_ONLY.includes(key));
const MANAGE_ROLES = { error: 'Only owners can manage roles' };
const refusal = (error: string, details: object = {}) => ({ success: false, error, ...details });

/**
 * Custom roles and permissions (docs/roles.md), on the limits ROLES_PER_ORG=4 and ROLES_PER_MEMBER=2.
 * A spec state (no custom role, an admin, an owner) answers as before; a member holding a custom role
 * is a new state, where the role's permissions decide.
 */
describe('custom roles and permissions', () => {
  const { t, factory, org } = useOrganisationSuite({ app: { env: { ROLES_PER_ORG: '4', ROLES_PER_MEMBER: '2' } } });
  let admin: TestUser;
  let member: TestUser;
  let ownerCookie: string;
  let adminCookie: string;
  let memberCookie: string;

  beforeEach(async () => {
    admin = await factory.member(org.tenant.id, { role: 'admin' });
    member = await factory.member(org.tenant.id, { role: 'member' });
    ownerCookie = org.ownerCookie;
    [adminCookie, memberCookie] = await Promise.all([sessionCookie(t, admin), sessionCookie(t, member)]);
  });

  /** A member of the organisation holding these roles (defined by the owner when missing), signed in. */
  const holder = async (roles: Record<string, string[]>, role = 'member') => {
    const user = await factory.member(org.tenant.id, { role });
    for (const [key, permissions] of Object.entries(roles)) {
      if (!(await roleKeys(t, org.tenant.id)).includes(key))
        expect((await defineRole(t, ownerCookie, key, permissions)).status).toBe(201);
    }
    expect((await setRoles(t, ownerCookie, user.id, Object.keys(roles))).status).toBe(200);
    return { user, cookie: await sessionCookie(t, user) };
  };

  describe('POST /api/org/roles', () => {
    it('an owner defines a role: 201 with the role, stored with its permissions, role.created recorded', async () => {
      const res = await t.http
        .post('/api/org/roles')
        .set('Cookie', ownerCookie)
        .send({ key: 'recruiter', name: ' Recruiter ', permissions: ['invitations:read', 'invitations:create'] });
      expect([res.status, res.body]).toEqual([
        201,
        {
          success: true,
          role: {
            key: 'recruiter',
            name: 'Recruiter',
            description: null,
            permissions: ['invitations:create', 'invitations:read'],
            system: false,
            createdAt: expect.any(String),
            updatedAt: expect.any(String),
          },
        },
      ]);
      expect(await roleKeys(t, org.tenant.id)).toEqual(['recruiter']);
      const stored = await t.dataSource.getRepository(OrgRolePermissionEntity).findBy({ tenantId: org.tenant.id });
      expect(stored.map((row) => row.permission).sort()).toEqual(['invitations:create', 'invitations:read']);
      const [event] = await eventsOf(t, org.tenant.id, 'role.created');
      expect(event).toMatchObject({
        actor: { id: org.owner.id },
        target: { type: 'role', id: 'recruiter' },
        data: { key: 'recruiter', name: 'Recruiter', description: null, permissions: res.body.role.permissions },
      });
    });

    it.each([
      ['a key of a system role', { key: 'admin', name: 'x', permissions: [] }, 409, refusal('ROLE_RESERVED')],
      [
        'a key that breaks the pattern',
        { key: 'Recruiter', name: 'x', permissions: [] },
        400,
        refusal('INVALID_ROLE_KEY'),
      ],
      ['a key of one letter', { key: 'r', name: 'x', permissions: [] }, 400, refusal('INVALID_ROLE_KEY')],
      ['no name', { key: 'recruiter', permissions: [] }, 400, refusal('INVALID_ROLE_NAME')],
      ['a blank name', { key: 'recruiter', name: '  ', permissions: [] }, 400, refusal('INVALID_ROLE_NAME')],
      [
        'permissions not a list',
        { key: 'recruiter', name: 'x', permissions: 'audit:read' },
        400,
        refusal('INVALID_PERMISSIONS'),
      ],
      [
        'a permission twice',
        { key: 'recruiter', name: 'x', permissions: ['audit:read', 'audit:read'] },
        400,
        refusal('INVALID_PERMISSIONS'),
      ],
      [
        'an unknown permission',
        { key: 'recruiter', name: 'x', permissions: ['audit:read', 'reports:export'] },
        422,
        refusal('UNKNOWN_PERMISSION', { permission: 'reports:export' }),
      ],
      [
        'an owner-only permission',
        { key: 'recruiter', name: 'x', permissions: ['scim:manage'] },
        422,
        refusal('PERMISSION_NOT_GRANTABLE', { permission: 'scim:manage' }),
      ],
      [
        'single sign-on’s set-up',
        { key: 'recruiter', name: 'x', permissions: ['sso:manage'] },
        422,
        refusal('PERMISSION_NOT_GRANTABLE', { permission: 'sso:manage' }),
      ],
    ])('%s is refused, and nothing is stored', async (_, body, status, expected) => {
      const res = await invalidRequest(() => t.http.post('/api/org/roles').set('Cookie', ownerCookie).send(body));
      expect([res.status, res.body]).toEqual([status, expected]);
      expect(await roleKeys(t, org.tenant.id)).toEqual([]);
      expect(await eventsOf(t, org.tenant.id, 'role.created')).toEqual([]);
    });

    it('a key in use is 409 ROLE_EXISTS; past ROLES_PER_ORG, 422 ROLE_LIMIT', async () => {
      expect((await defineRole(t, ownerCookie, 'recruiter', [])).status).toBe(201);
      const again = await defineRole(t, ownerCookie, 'recruiter', ['audit:read']);
      expect([again.status, again.body]).toEqual([409, refusal('ROLE_EXISTS')]);
      for (const key of ['r2', 'r3', 'r4']) expect((await defineRole(t, ownerCookie, key, [])).status).toBe(201);
      const past = await defineRole(t, ownerCookie, 'r5', []);
      expect([past.status, past.body]).toEqual([422, refusal('ROLE_LIMIT', { limit: 4 })]);
      expect(await roleKeys(t, org.tenant.id)).toEqual(['r2', 'r3', 'r4', 'recruiter']);
    });

    it('an admin and a plain member are refused as a member of a spec route is: 403, nothing stored', async () => {
      for (const cookie of [adminCookie, memberCookie]) {
        const res = await defineRole(t, cookie, 'recruiter', []);
        expect([res.status, res.body]).toEqual([403, MANAGE_ROLES]);
      }
      expect(await roleKeys(t, org.tenant.id)).toEqual([]);
    });

    it('a holder of roles:manage defines roles, but only with permissions of their own: 403 ROLE_ESCALATION', async () => {
      const manager = await holder({ 'role-manager': ['roles:manage', 'invitations:create'] });
      const own = await defineRole(t, manager.cookie, 'recruiter', ['invitations:create']);
      expect(own.status).toBe(201);
      const above = await defineRole(t, manager.cookie, 'remover', ['invitations:create', 'members:remove']);
      expect([above.status, above.body]).toEqual([403, refusal('ROLE_ESCALATION', { permission: 'members:remove' })]);
      expect(await roleKeys(t, org.tenant.id)).toEqual(['recruiter', 'role-manager']);
    });
  });

  describe('GET /api/org/roles and GET /api/org/roles/{key}', () => {
    it('the three system roles first, then the organisation’s by key; any member reads them', async () => {
      await defineRole(t, ownerCookie, 'recruiter', ['invitations:create']);
      await defineRole(t, ownerCookie, 'auditor', ['audit:read']);
      const res = await t.http.get('/api/org/roles').set('Cookie', memberCookie);
      expect(res.status).toBe(200);
      expect(res.body.roles.map((role: { key: string; system: boolean }) => [role.key, role.system])).toEqual([
        ['owner', true],
        ['admin', true],
        ['member', true],
        ['auditor', false],
        ['recruiter', false],
      ]);
      expect(res.body.roles.slice(0, 3).map((role: { permissions: string[] }) => role.permissions)).toEqual([
        SERVICE,
        ADMIN,
        ['members:read'],
      ]);
      const one = await t.http.get('/api/org/roles/recruiter').set('Cookie', memberCookie);
      expect([one.status, one.body.role]).toEqual([
        200,
        expect.objectContaining({ permissions: ['invitations:create'] }),
      ]);
      const system = await t.http.get('/api/org/roles/member').set('Cookie', memberCookie);
      expect(system.body.role).toMatchObject({ key: 'member', system: true, permissions: ['members:read'] });
      const missing = await t.http.get('/api/org/roles/nobody').set('Cookie', memberCookie);
      expect([missing.status, missing.body]).toEqual([404, refusal('ROLE_NOT_FOUND')]);
    });

    it('no session is 401; a user of no organisation 403, as on every org route', async () => {
      const none = await t.http.get('/api/org/roles');
      expect([none.status, none.body]).toEqual([401, UNAUTHORIZED]);
      const outsider = await sessionCookie(t, await factory.user());
      const res = await t.http.get('/api/org/roles').set('Cookie', outsider);
      expect([res.status, res.body]).toEqual([403, REMOVE_MEMBER_ERRORS.notOrgUser]);
    });
  });

  describe('PATCH /api/org/roles/{key}', () => {
    it('changes the name and replaces the permissions: role.updated with before and after', async () => {
      await defineRole(t, ownerCookie, 'recruiter', ['invitations:create']);
      const res = await t.http
        .patch('/api/org/roles/recruiter')
        .set('Cookie', ownerCookie)
        .send({ name: 'Hiring', permissions: ['invitations:read'] });
      expect([res.status, res.body.role]).toEqual([
        200,
        expect.objectContaining({ key: 'recruiter', name: 'Hiring', permissions: ['invitations:read'] }),
      ]);
      const [event] = await eventsOf(t, org.tenant.id, 'role.updated');
      expect(event.data).toEqual({
        before: { key: 'recruiter', name: 'recruiter', description: null, permissions: ['invitations:create'] },
        after: { key: 'recruiter', name: 'Hiring', description: null, permissions: ['invitations:read'] },
      });
    });

    it.each([
      ['a system role', 'admin', { name: 'x' }, 409, refusal('ROLE_SYSTEM')],
      ['an unknown role', 'nobody', { name: 'x' }, 404, refusal('ROLE_NOT_FOUND')],
      ['an empty edit', 'recruiter', {}, 400, refusal('INVALID_BODY')],
      [
        'an unknown permission',
        'recruiter',
        { permissions: ['x:y'] },
        422,
        refusal('UNKNOWN_PERMISSION', { permission: 'x:y' }),
      ],
    ])('%s is refused and nothing changes', async (_, key, body, status, expected) => {
      await defineRole(t, ownerCookie, 'recruiter', ['invitations:create']);
      const res = await t.http.patch(`/api/org/roles/${key}`).set('Cookie', ownerCookie).send(body);
      expect([res.status, res.body]).toEqual([status, expected]);
      const row = await t.dataSource.getRepository(OrgRoleEntity).findOneByOrFail({ tenantId: org.tenant.id });
      expect([row.name, row.version]).toEqual(['recruiter', 0]);
    });
  });

  describe('DELETE /api/org/roles/{key}', () => {
    it('a role that members hold: 409 ROLE_IN_USE with the count, and nothing changes', async () => {
      const a = await holder({ recruiter: ['invitations:create'] });
      const b = await holder({ recruiter: ['invitations:create'] });
      const res = await t.http.delete('/api/org/roles/recruiter').set('Cookie', ownerCookie);
      expect([res.status, res.body]).toEqual([409, refusal('ROLE_IN_USE', { members: 2 })]);
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${a.user.id}:recruiter`, `${b.user.id}:recruiter`].sort());
    });

    it('with reassignTo: every holder holds that role instead, in one transaction, each change audited', async () => {
      const a = await holder({ recruiter: ['invitations:create'] });
      const b = await holder({ recruiter: ['invitations:create'], sourcer: ['invitations:read'] });
      const res = await t.http.delete('/api/org/roles/recruiter?reassignTo=sourcer').set('Cookie', ownerCookie);
      expect([res.status, res.body]).toEqual([200, { success: true, reassigned: 2 }]);
      expect(await roleKeys(t, org.tenant.id)).toEqual(['sourcer']);
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${a.user.id}:sourcer`, `${b.user.id}:sourcer`].sort());
      const [deleted] = await eventsOf(t, org.tenant.id, 'role.deleted');
      expect(deleted.data).toMatchObject({ key: 'recruiter', members: 2, reassignedTo: 'sourcer' });
      const changes = (await eventsOf(t, org.tenant.id, 'member.roles_changed')).filter(
        (event) => event.data.reason === 'role_deleted',
      );
      expect(changes.map((event) => [event.target.id, event.data.before, event.data.after]).sort()).toEqual(
        [
          [a.user.id, ['recruiter'], ['sourcer']],
          [b.user.id, ['recruiter', 'sourcer'], ['sourcer']],
        ].sort(),
      );
    });

    it('a role nobody holds goes at once; an unknown reassignTo is 422 UNKNOWN_ROLE; a system role 409', async () => {
      await holder({ recruiter: ['invitations:create'] });
      const unknown = await t.http.delete('/api/org/roles/recruiter?reassignTo=nobody').set('Cookie', ownerCookie);
      expect([unknown.status, unknown.body]).toEqual([422, refusal('UNKNOWN_ROLE', { role: 'nobody' })]);
      const system = await t.http.delete('/api/org/roles/member').set('Cookie', ownerCookie);
      expect([system.status, system.body]).toEqual([409, refusal('ROLE_SYSTEM')]);
      await defineRole(t, ownerCookie, 'unused', []);
      const res = await t.http.delete('/api/org/roles/unused').set('Cookie', ownerCookie);
      expect([res.status, res.body]).toEqual([200, { success: true }]);
      expect(await roleKeys(t, org.tenant.id)).toEqual(['recruiter']);
    });
  });

  describe('PUT /api/org/members/{id}/roles', () => {
    it('replaces the member’s roles: 200 with the member, stored, member.roles_changed with before and after', async () => {
      await defineRole(t, ownerCookie, 'recruiter', ['invitations:create']);
      await defineRole(t, ownerCookie, 'auditor', ['audit:read']);
      expect((await setRoles(t, ownerCookie, member.id, ['recruiter'])).status).toBe(200);
      const res = await setRoles(t, adminCookie, member.id, ['recruiter', 'auditor']);
      expect([res.status, res.body]).toEqual([
        200,
        {
          success: true,
          member: { id: member.id, email: member.email, role: 'member', roles: ['auditor', 'recruiter'] },
        },
      ]);
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${member.id}:auditor`, `${member.id}:recruiter`]);
      const events = await eventsOf(t, org.tenant.id, 'member.roles_changed');
      expect(events.map((event) => [event.actor?.id, event.data])).toEqual([
        [org.owner.id, { before: [], after: ['recruiter'] }],
        [admin.id, { before: ['recruiter'], after: ['auditor', 'recruiter'] }],
      ]);
      const list = await t.http.get('/api/org/members').set('Cookie', memberCookie);
      const listed = list.body.members.find((one: { id: string }) => one.id === member.id);
      expect(listed).toEqual({ id: member.id, email: member.email, role: 'member', roles: ['auditor', 'recruiter'] });
      expect(list.body.members.find((one: { id: string }) => one.id === admin.id)).toEqual({
        id: admin.id,
        email: admin.email,
        role: 'admin',
      });
    });

    it.each([
      ['not a list', { roles: 'recruiter' }, 400, refusal('INVALID_ROLES')],
      ['an unknown role', { roles: ['nobody'] }, 422, refusal('UNKNOWN_ROLE', { role: 'nobody' })],
      ['more than ROLES_PER_MEMBER', { roles: ['a1', 'a2', 'a3'] }, 422, refusal('MEMBER_ROLE_LIMIT', { limit: 2 })],
    ])('%s is refused, and nothing changes', async (_, body, status, expected) => {
      await holder({ recruiter: ['invitations:create'] });
      const before = await heldRoles(t, org.tenant.id);
      const res = await invalidRequest(() =>
        t.http.put(`/api/org/members/${member.id}/roles`).set('Cookie', ownerCookie).send(body),
      );
      expect([res.status, res.body]).toEqual([status, expected]);
      expect(await heldRoles(t, org.tenant.id)).toEqual(before);
    });

    it('the caller’s own roles 400; another organisation’s user 404; an owner by a non-owner 403', async () => {
      await defineRole(t, ownerCookie, 'recruiter', ['invitations:create']);
      const own = await setRoles(t, ownerCookie, org.owner.id, ['recruiter']);
      expect([own.status, own.body]).toEqual([400, refusal('CANNOT_CHANGE_OWN_ROLES')]);
      const stranger = await factory.member((await factory.tenant()).id, { role: 'member' });
      const other = await setRoles(t, ownerCookie, stranger.id, ['recruiter']);
      expect([other.status, other.body]).toEqual([404, refusal('USER_NOT_FOUND')]);
      const owner = await setRoles(t, adminCookie, org.owner.id, ['recruiter']);
      expect([owner.status, owner.body]).toEqual([403, refusal('ONLY_OWNERS_CHANGE_OWNERS')]);
      expect(await heldRoles(t, org.tenant.id)).toEqual([]);
    });

    it('no escalation: an admin gives no role with a permission admins lack (403 naming it), nor takes one away', async () => {
      await defineRole(t, ownerCookie, 'role-manager', ['roles:manage']);
      const give = await setRoles(t, adminCookie, member.id, ['role-manager']);
      expect([give.status, give.body]).toEqual([403, refusal('ROLE_ESCALATION', { permission: 'roles:manage' })]);
      expect(await heldRoles(t, org.tenant.id)).toEqual([]);
      await setRoles(t, ownerCookie, member.id, ['role-manager']);
      const take = await setRoles(t, adminCookie, member.id, []);
      expect([take.status, take.body]).toEqual([403, refusal('ROLE_ESCALATION', { permission: 'roles:manage' })]);
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${member.id}:role-manager`]);
    });

    it('a plain member is refused as on PATCH /api/org/members/{id}', async () => {
      await defineRole(t, ownerCookie, 'recruiter', []);
      const res = await setRoles(t, memberCookie, admin.id, ['recruiter']);
      expect([res.status, res.body]).toEqual([403, { error: 'Only owner or admin can manage members' }]);
    });
  });

  describe('the guard: a custom role opens what its permissions name, and nothing else', () => {
    it('a recruiter (member + invitations:create) invites, and is refused removal as a plain member is', async () => {
      const recruiter = await holder({ recruiter: ['invitations:create'] });
      const invite = await t.http
        .post('/api/org/invite')
        .set('Cookie', recruiter.cookie)
        .send({ email: 'candidate@example.com', role: 'member' });
      expect([invite.status, invite.body.invitation?.email]).toEqual([200, 'candidate@example.com']);
      const quota = await t.http.get('/api/org/invite/quota').set('Cookie', recruiter.cookie);
      expect(quota.status).toBe(200);
      for (const cookie of [recruiter.cookie, memberCookie]) {
        const remove = await t.http.delete(`/api/org/users/${admin.id}`).set('Cookie', cookie);
        expect([remove.status, remove.body]).toEqual([403, REMOVE_MEMBER_ERRORS.notOwnerOrAdmin]);
      }
      expect(await t.identity.findById(admin.id)).toMatchObject({ tenantId: org.tenant.id, role: 'admin' });
    });

    it('an auditor reads the audit trail and nothing else: every other route answers the plain member’s refusal', async () => {
      const auditor = await holder({ auditor: ['audit:read'] });
      expect((await t.http.get('/api/org/audit-events').set('Cookie', auditor.cookie)).status).toBe(200);
      const plain = await t.http.get('/api/org/audit-events').set('Cookie', memberCookie);
      expect([plain.status, plain.body]).toEqual([403, { error: 'Only owner or admin can read the audit trail' }]);
      const calls: [string, (cookie: string) => Promise<{ status: number; body: unknown }>][] = [
        [
          'invite',
          (c) => t.http.post('/api/org/invite').set('Cookie', c).send({ email: 'x@example.com', role: 'member' }),
        ],
        ['invitations', (c) => t.http.get('/api/org/invitations').set('Cookie', c)],
        ['remove', (c) => t.http.delete(`/api/org/users/${admin.id}`).set('Cookie', c)],
        ['role change', (c) => t.http.patch(`/api/org/members/${admin.id}`).set('Cookie', c).send({ role: 'member' })],
        ['domains', (c) => t.http.get('/api/org/domains').set('Cookie', c)],
        ['roles', (c) => defineRole(t, c, 'sneaky', [])],
      ];
      for (const [what, call] of calls) {
        const [asAuditor, asMember] = [await call(auditor.cookie), await call(memberCookie)];
        expect([what, asAuditor.status, asAuditor.body]).toEqual([what, asMember.status, asMember.body]);
        expect(asAuditor.status).toBe(403);
      }
      expect(INVITE_ERRORS.notOwnerOrAdmin).toEqual((await calls[0][1](auditor.cookie)).body);
      expect(ORG_INVITATION_ERRORS.notOwnerOrAdmin).toEqual((await calls[1][1](auditor.cookie)).body);
    });

    it('a custom role never opens a super-admin route: 403 Forbidden, as for any member', async () => {
      const manager = await holder({ everything: ['roles:manage', 'members:remove', 'audit:read'] });
      for (const path of ['/api/admin/tenants/' + org.tenant.id, '/api/admin/audit-events']) {
        const res = await t.http.get(path).set('Cookie', manager.cookie);
        expect([res.status, res.body]).toEqual([403, { error: 'Forbidden' }]);
      }
      const catalogue = await t.http
        .put('/api/admin/permissions')
        .set('Cookie', manager.cookie)
        .send({ permissions: [] });
      expect([catalogue.status, catalogue.body]).toEqual([403, { error: 'Forbidden' }]);
    });

    it('a role taken away stops working on the next request', async () => {
      const recruiter = await holder({ recruiter: ['invitations:create'] });
      expect((await t.http.get('/api/org/invite/quota').set('Cookie', recruiter.cookie)).status).toBe(200);
      expect((await setRoles(t, ownerCookie, recruiter.user.id, [])).status).toBe(200);
      const res = await t.http.get('/api/org/invite/quota').set('Cookie', recruiter.cookie);
      expect([res.status, res.body]).toEqual([403, { error: 'Only owner or admin can manage invitations' }]);
    });

    it('a plain member’s refusal reads no identity record, and one indexed read of roles; an owner’s route none', async () => {
      const reads = jest.spyOn(t.identity, 'findOrgCaller');
      const grants = jest.spyOn(t.app.get(GrantsStore), 'grantOf');
      const plain = await t.http.get('/api/org/invite/quota').set('Cookie', memberCookie);
      expect(plain.status).toBe(403);
      expect([reads.mock.calls.length, grants.mock.calls.length]).toEqual([0, 1]);
      reads.mockClear();
      grants.mockClear();
      expect((await t.http.get('/api/org/invite/quota').set('Cookie', adminCookie)).status).toBe(200);
      expect([reads.mock.calls.length, grants.mock.calls.length]).toEqual([1, 0]);
    });

    it('a holder of members:set_role gives no base role beyond their own, and never touches an owner', async () => {
      const manager = await holder({ 'people-lead': ['members:set_role', 'members:read'] });
      const promote = await t.http
        .patch(`/api/org/members/${member.id}`)
        .set('Cookie', manager.cookie)
        .send({ role: 'admin' });
      expect([promote.status, promote.body]).toEqual([403, refusal('ROLE_ESCALATION', { permission: 'audit:read' })]);
      const owner = await t.http
        .patch(`/api/org/members/${org.owner.id}`)
        .set('Cookie', manager.cookie)
        .send({ role: 'member' });
      expect([owner.status, owner.body]).toEqual([403, { error: 'Admins cannot change owners' }]);
      expect(await t.identity.findById(member.id)).toMatchObject({ role: 'member' });
    });

    it('a suspended organisation refuses a holder as every member: 403 "Organisation is suspended"', async () => {
      const recruiter = await holder({ recruiter: ['invitations:create'] });
      const root = await sessionCookie(t, await factory.superAdmin());
      expect(
        (await t.http.post(`/api/admin/tenants/${org.tenant.id}/suspend`).set('Cookie', root).send({})).status,
      ).toBe(200);
      const res = await t.http.get('/api/org/invite/quota').set('Cookie', recruiter.cookie);
      expect([res.status, res.body]).toEqual([403, { error: 'Organisation is suspended' }]);
    });
  });

  describe('POST /api/org/permissions/check', () => {
    const check = (cookie: string, body: object) =>
      t.http.post('/api/org/permissions/check').set('Cookie', cookie).send(body);

    it('answers each permission for the caller now; an unknown one is false, never an error', async () => {
      const recruiter = await holder({ recruiter: ['invitations:create'] });
      const res = await check(recruiter.cookie, {
        permissions: ['invitations:create', 'members:remove', 'members:read', 'reports:export', 'not a permission'],
      });
      expect([res.status, res.body]).toEqual([
        200,
        {
          results: {
            'invitations:create': true,
            'members:remove': false,
            'members:read': true,
            'reports:export': false,
            'not a permission': false,
          },
        },
      ]);
    });

    it('costs the guard’s read of the caller and one indexed read of their roles, made at the same time', async () => {
      const recruiter = await holder({ recruiter: ['invitations:create'] });
      const records = jest.spyOn(t.identity, 'findOrgCaller');
      const roles = jest.spyOn(t.app.get(GrantsStore), 'heldBy');
      const res = await check(recruiter.cookie, { permissions: ['invitations:create'] });
      expect(res.body).toEqual({ results: { 'invitations:create': true } });
      expect([records.mock.calls.length, roles.mock.calls]).toEqual([1, [[org.tenant.id, recruiter.user.id]]]);
    });

    it('another member’s, by userId; one of another organisation is 404; a bad body 400', async () => {
      const recruiter = await holder({ recruiter: ['invitations:create'] });
      const res = await check(memberCookie, { userId: recruiter.user.id, permissions: ['invitations:create'] });
      expect(res.body).toEqual({ results: { 'invitations:create': true } });
      const owner = await check(memberCookie, { userId: org.owner.id, permissions: ['scim:manage', 'roles:manage'] });
      expect(owner.body).toEqual({ results: { 'scim:manage': true, 'roles:manage': true } });
      const stranger = await factory.member((await factory.tenant()).id);
      const other = await check(memberCookie, { userId: stranger.id, permissions: ['members:read'] });
      expect([other.status, other.body]).toEqual([404, refusal('USER_NOT_FOUND')]);
      for (const body of [{}, { permissions: [] }, { permissions: Array(101).fill('a:b') }, { permissions: [1] }]) {
        const bad = await invalidRequest(() => check(memberCookie, body));
        expect([bad.status, bad.body]).toEqual([400, refusal('INVALID_PERMISSIONS')]);
      }
    });
  });

  describe('GET /api/me/permissions', () => {
    it('the organisation, the base role, the custom roles and every permission held now, sorted', async () => {
      const recruiter = await holder({ recruiter: ['invitations:create'], auditor: ['audit:read'] });
      const res = await t.http.get('/api/me/permissions').set('Cookie', recruiter.cookie);
      expect([res.status, res.body]).toEqual([
        200,
        {
          organisation: { id: org.tenant.id, name: org.tenant.name },
          role: 'member',
          roles: ['auditor', 'recruiter'],
          permissions: ['audit:read', 'invitations:create', 'members:read'],
        },
      ]);
      const owner = await t.http.get('/api/me/permissions').set('Cookie', ownerCookie);
      expect(owner.body).toMatchObject({ role: 'owner', roles: [], permissions: SERVICE });
    });

    it('outside any organisation: null and nothing; without a session 401', async () => {
      const res = await t.http.get('/api/me/permissions').set('Cookie', await sessionCookie(t, await factory.user()));
      expect(res.body).toEqual({ organisation: null, role: null, roles: [], permissions: [] });
      const none = await t.http.get('/api/me/permissions');
      expect([none.status, none.body]).toEqual([401, UNAUTHORIZED]);
    });
  });

  describe('the product’s catalogue: GET /api/permissions, PUT /api/admin/permissions', () => {
    let rootCookie: string;
    const put = (body: object, query = '') =>
      t.http.put(`/api/admin/permissions${query}`).set('Cookie', rootCookie).send(body);

    beforeEach(async () => {
      rootCookie = await sessionCookie(t, await factory.superAdmin());
      // The catalogue is the platform's: each test starts from an empty one.
      expect((await put({ permissions: [] }, '?force=true')).status).toBe(200);
    });

    it('a super-admin declares the product’s permissions; owners and admins hold them; roles may carry them', async () => {
      const res = await put({
        permissions: [{ key: 'reports:export', description: 'Export reports' }, { key: 'billing:manage' }],
      });
      expect([res.status, res.body]).toEqual([
        200,
        {
          success: true,
          permissions: [
            { key: 'billing:manage', description: null },
            { key: 'reports:export', description: 'Export reports' },
          ],
          rolesChanged: 0,
        },
      ]);
      const listed = await t.http.get('/api/permissions').set('Cookie', memberCookie);
      expect(listed.body.permissions.slice(-2)).toEqual([
        { key: 'billing:manage', description: null, kind: 'product', grantable: true, heldBy: ['owner', 'admin'] },
        {
          key: 'reports:export',
          description: 'Export reports',
          kind: 'product',
          grantable: true,
          heldBy: ['owner', 'admin'],
        },
      ]);
      expect(listed.body.permissions[0]).toMatchObject({
        key: 'members:read',
        kind: 'service',
        heldBy: ['owner', 'admin', 'member'],
      });
      const adminCheck = await t.http
        .post('/api/org/permissions/check')
        .set('Cookie', adminCookie)
        .send({ permissions: ['reports:export', 'roles:manage'] });
      expect(adminCheck.body).toEqual({ results: { 'reports:export': true, 'roles:manage': false } });
      const analyst = await holder({ analyst: ['reports:export'] });
      const me = await t.http.get('/api/me/permissions').set('Cookie', analyst.cookie);
      expect(me.body.permissions).toEqual(['members:read', 'reports:export']);
      const event = (await eventsOf(t, null, 'permissions.catalogue_changed')).at(-1)!;
      expect(event.data).toEqual({
        added: ['billing:manage', 'reports:export'],
        removed: [],
        described: [],
        rolesChanged: 0,
      });
    });

    it('removing a permission that roles carry: 409 PERMISSION_IN_USE; with force=true, out of those roles, audited', async () => {
      await put({ permissions: [{ key: 'reports:export' }] });
      const analyst = await holder({ analyst: ['reports:export', 'audit:read'] });
      const refused = await put({ permissions: [] });
      expect([refused.status, refused.body]).toEqual([
        409,
        refusal('PERMISSION_IN_USE', { permission: 'reports:export', roles: 1 }),
      ]);
      expect(await t.dataSource.getRepository(ProductPermissionEntity).count()).toBe(1);
      const forced = await put({ permissions: [] }, '?force=true');
      expect([forced.status, forced.body.rolesChanged]).toEqual([200, 1]);
      const role = await t.http.get('/api/org/roles/analyst').set('Cookie', ownerCookie);
      expect(role.body.role.permissions).toEqual(['audit:read']);
      const [updated] = await eventsOf(t, org.tenant.id, 'role.updated');
      expect(updated.data).toMatchObject({ reason: 'permission_removed', after: { permissions: ['audit:read'] } });
      const check = await t.http
        .post('/api/org/permissions/check')
        .set('Cookie', analyst.cookie)
        .send({ permissions: ['reports:export'] });
      expect(check.body).toEqual({ results: { 'reports:export': false } });
    });

    it('a key of the service’s is 409 PERMISSION_RESERVED; a bad key 400; not a super-admin 403', async () => {
      const reserved = await put({ permissions: [{ key: 'members:read' }] });
      expect([reserved.status, reserved.body]).toEqual([
        409,
        refusal('PERMISSION_RESERVED', { permission: 'members:read' }),
      ]);
      for (const permissions of [[{ key: 'Reports:Export' }], [{ key: 'a:b' }, { key: 'a:b' }], 'x', [7]]) {
        const bad = await invalidRequest(() => put({ permissions }));
        expect([bad.status, bad.body]).toEqual([400, refusal('INVALID_PERMISSIONS')]);
      }
      const notRoot = await t.http.put('/api/admin/permissions').set('Cookie', ownerCookie).send({ permissions: [] });
      expect([notRoot.status, notRoot.body]).toEqual([403, { error: 'Forbidden' }]);
      expect(await t.dataSource.getRepository(ProductPermissionEntity).count()).toBe(0);
    });
  });
});

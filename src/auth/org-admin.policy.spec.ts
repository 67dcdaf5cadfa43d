import { IdentityUser } from '../identity/identity-store';
import { Caller } from './caller';
import {
  confirmOrgAdmin,
  customRolesMayGrant,
  decideOrgAdmin,
  isRoleRefusal,
  refuseClaimedRole,
} from './org-admin.policy';

const messages = { notOrgUser: 'not org', notOwnerOrAdmin: 'not owner or admin' };
const caller = (overrides: Partial<Caller> = {}): Caller => ({
  id: 'u1',
  email: 'u1@example.com',
  userType: 'org',
  tenantId: 't1',
  role: 'owner',
  ...overrides,
});
const record = (overrides: Partial<IdentityUser> = {}): IdentityUser => ({
  ...caller(),
  email: 'u1@example.com',
  platformRole: null,
  ...overrides,
});

describe(decideOrgAdmin.name, () => {
  it('rule "no id token": 401 Unauthorized', () => {
    expect(decideOrgAdmin(undefined, messages)).toEqual({ allowed: false, status: 401, error: 'Unauthorized' });
  });

  it.each([
    ['user_type is not org', { userType: 'personal' }],
    ['user_type is absent', { userType: null }],
    ['tenant_id is absent', { tenantId: null }],
  ])('rule "org user": 403 when %s', (_, overrides) => {
    expect(decideOrgAdmin(caller(overrides), messages)).toEqual({ allowed: false, status: 403, error: 'not org' });
  });

  it('checks the org user before the role', () => {
    expect(decideOrgAdmin(caller({ userType: null, role: 'member' }), messages)).toMatchObject({ error: 'not org' });
  });

  it.each(['member', null, 'Owner', 'super_admin'])('rule "owner or admin": 403 for role %p', (role) => {
    expect(decideOrgAdmin(caller({ role }), messages)).toEqual({
      allowed: false,
      status: 403,
      error: 'not owner or admin',
    });
  });

  it.each(['owner', 'admin'])('allows an org %s', (role) => {
    expect(decideOrgAdmin(caller({ role }), messages)).toEqual({ allowed: true });
  });
});

describe(confirmOrgAdmin.name, () => {
  it.each([
    ['the account is gone', null],
    ['the record has no tenant any more (removed)', record({ tenantId: null, role: null })],
    ['the record names another tenant than the claims', record({ tenantId: 't2' })],
    ['the record is no longer an org user', record({ userType: null })],
  ])('"org user" on the stored record: 403 when %s', (_, stored) => {
    expect(confirmOrgAdmin(caller(), stored, messages)).toEqual({ allowed: false, status: 403, error: 'not org' });
  });

  it.each(['member', null])(
    '"owner or admin" on the stored record: 403 when the stored role is %p (demoted)',
    (role) => {
      expect(confirmOrgAdmin(caller({ role: 'admin' }), record({ role }), messages)).toEqual({
        allowed: false,
        status: 403,
        error: 'not owner or admin',
      });
    },
  );

  it.each([
    ['owner', 'owner'],
    ['admin', 'owner'],
    ['owner', 'admin'],
  ])('allows a caller whose claims say %s and whose record says %s', (claimed, stored) => {
    expect(confirmOrgAdmin(caller({ role: claimed }), record({ role: stored }), messages)).toEqual({ allowed: true });
  });
});

describe('a route open to every role of the organisation (no notOwnerOrAdmin)', () => {
  const anyRole = { notOrgUser: 'not org' };

  it.each(['member', null, 'owner'])('allows role %p by the claims and by the stored record', (role) => {
    expect(decideOrgAdmin(caller({ role }), anyRole)).toEqual({ allowed: true });
    expect(confirmOrgAdmin(caller({ role }), record({ role }), anyRole)).toEqual({ allowed: true });
  });

  it('still refuses a caller who is not an org user, by claims and by record', () => {
    expect(decideOrgAdmin(caller({ tenantId: null }), anyRole)).toEqual({
      allowed: false,
      status: 403,
      error: 'not org',
    });
    expect(confirmOrgAdmin(caller(), record({ tenantId: 't2' }), anyRole)).toEqual({
      allowed: false,
      status: 403,
      error: 'not org',
    });
  });
});

describe('a tenant in a state that the spec does not know', () => {
  const suspended = { allowed: false, status: 403, error: 'Organisation is suspended' };

  it.each(['owner', 'admin', 'member'])(
    'a suspended tenant refuses its %s as such, before the role is looked at',
    (role) => {
      expect(confirmOrgAdmin(caller({ role }), record({ role }), messages, 'suspended')).toEqual(suspended);
    },
  );

  it('a suspended tenant still refuses first whoever is no longer its organisation user', () => {
    expect(confirmOrgAdmin(caller(), record({ tenantId: null }), messages, 'suspended')).toEqual({
      allowed: false,
      status: 403,
      error: 'not org',
    });
  });

  it("a tenant being deleted has no organisation users left: 'not org'", () => {
    expect(confirmOrgAdmin(caller(), record(), messages, 'deleted')).toEqual({
      allowed: false,
      status: 403,
      error: 'not org',
    });
  });

  it.each(['active', 'pending_owner', null] as const)('status %p changes nothing', (status) => {
    expect(confirmOrgAdmin(caller(), record(), messages, status)).toEqual({ allowed: true });
    expect(confirmOrgAdmin(caller(), record({ role: 'member' }), messages, status)).toMatchObject({
      error: 'not owner or admin',
    });
  });

  it("a refusal by the claims' role becomes the suspension only for a suspended tenant", () => {
    const byRole = decideOrgAdmin(caller({ role: 'member' }), messages);
    expect(isRoleRefusal(byRole, messages)).toBe(true);
    expect(refuseClaimedRole(byRole, 'suspended')).toEqual(suspended);
    for (const status of ['active', 'pending_owner', 'deleted', null] as const)
      expect(refuseClaimedRole(byRole, status)).toBe(byRole);
  });

  it('no other refusal is a refusal by role', () => {
    expect(isRoleRefusal(decideOrgAdmin(undefined, messages), messages)).toBe(false);
    expect(isRoleRefusal(decideOrgAdmin(caller({ tenantId: null }), messages), messages)).toBe(false);
    expect(isRoleRefusal(decideOrgAdmin(caller(), messages), messages)).toBe(false);
  });
});

describe('a route that needs a permission (docs/roles.md)', () => {
  const withRefusal = { notOrgUser: 'not org', notOwnerOrAdmin: 'no permission' };

  it.each([
    ['owner', 'roles:manage', true],
    ['admin', 'roles:manage', false],
    ['admin', 'invitations:create', true],
    ['member', 'invitations:create', false],
    ['member', 'members:read', true],
    [null, 'members:read', true],
    ['Owner', 'audit:read', false],
  ] as const)('the claims of a %p open %s: %p', (role, permission, allowed) => {
    expect(decideOrgAdmin(caller({ role }), withRefusal, permission)).toEqual(
      allowed ? { allowed: true } : { allowed: false, status: 403, error: 'no permission' },
    );
  });

  it("a member's custom role opens the route by the stored record, never by the claims", () => {
    const member = caller({ role: 'member' });
    expect(isRoleRefusal(decideOrgAdmin(member, withRefusal, 'audit:read'), withRefusal)).toBe(true);
    expect(confirmOrgAdmin(member, record({ role: 'member' }), withRefusal, 'active', 'audit:read', true)).toEqual({
      allowed: true,
    });
    expect(confirmOrgAdmin(member, record({ role: 'member' }), withRefusal, 'active', 'audit:read', false)).toEqual({
      allowed: false,
      status: 403,
      error: 'no permission',
    });
  });

  it('a custom role never opens an owner-only route, nor one decided by the base roles alone', () => {
    expect(customRolesMayGrant('scim:manage')).toBe(false);
    expect(customRolesMayGrant(null)).toBe(false);
    expect(customRolesMayGrant('roles:manage')).toBe(true);
    const admin = caller({ role: 'admin' });
    expect(confirmOrgAdmin(admin, record({ role: 'admin' }), withRefusal, 'active', 'scim:manage', true)).toEqual({
      allowed: false,
      status: 403,
      error: 'no permission',
    });
    expect(confirmOrgAdmin(admin, record({ role: 'member' }), messages, 'active', null, true)).toEqual({
      allowed: false,
      status: 403,
      error: 'not owner or admin',
    });
  });

  it('a custom role changes none of the refusals that come before the role: not an org user, suspended', () => {
    const member = caller({ role: 'member' });
    expect(confirmOrgAdmin(member, record({ tenantId: null }), withRefusal, 'active', 'audit:read', true)).toEqual({
      allowed: false,
      status: 403,
      error: 'not org',
    });
    expect(confirmOrgAdmin(member, record({ role: 'member' }), withRefusal, 'suspended', 'audit:read', true)).toEqual({
      allowed: false,
      status: 403,
      error: 'Organisation is suspended',
    });
    expect(confirmOrgAdmin(member, record({ role: 'member' }), withRefusal, 'deleted', 'audit:read', true)).toEqual({
      allowed: false,
      status: 403,
      error: 'not org',
    });
  });
});

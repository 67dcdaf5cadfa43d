import { IdentityUser } from '../identity/identity-store';
import { Caller } from './caller';
import { confirmOrgAdmin, decideOrgAdmin } from './org-admin.policy';

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

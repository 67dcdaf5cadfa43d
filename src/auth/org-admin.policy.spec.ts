import { Caller } from './caller';
import { decideOrgAdmin } from './org-admin.policy';

const messages = { notOrgUser: 'not org', notOwnerOrAdmin: 'not owner or admin' };
const caller = (overrides: Partial<Caller> = {}): Caller => ({
  id: 'u1',
  email: 'u1@example.com',
  userType: 'org',
  tenantId: 't1',
  role: 'owner',
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
    expect(decideOrgAdmin(caller({ role }), messages)).toEqual({ allowed: false, status: 403, error: 'not owner or admin' });
  });

  it.each(['owner', 'admin'])('allows an org %s', (role) => {
    expect(decideOrgAdmin(caller({ role }), messages)).toEqual({ allowed: true });
  });
});

import { RoleMapping } from './scim-role-mappings.store';
import { customRolesFor, roleFor } from './scim-roles';

const mapping: RoleMapping = new Map([
  ['owners', { groupName: 'Owners', role: 'owner', roles: [] }],
  ['leads', { groupName: 'Leads', role: 'admin', roles: ['auditor'] }],
  ['recruiters', { groupName: 'Recruiters', role: 'member', roles: ['recruiter'] }],
  ['hiring', { groupName: 'Hiring', role: 'member', roles: ['recruiter', 'scheduler'] }],
]);

describe('roleFor: a SCIM member’s base role', () => {
  it.each([
    ['no group', [], 'member'],
    ['a group no mapping names', ['everyone'], 'member'],
    ['a member’s group', ['recruiters'], 'member'],
    ['the highest of their groups', ['recruiters', 'leads'], 'admin'],
    ['owner above admin', ['leads', 'owners'], 'owner'],
  ])('%s → %s', (_what, groups, role) => {
    expect(roleFor(groups, mapping)).toBe(role);
  });
});

describe('customRolesFor: a SCIM member’s custom roles', () => {
  it('a mapped role is held exactly while one of their groups maps it', () => {
    expect(customRolesFor([], ['recruiters'], mapping)).toEqual(['recruiter']);
    expect(customRolesFor(['recruiter'], [], mapping)).toEqual([]);
    expect(customRolesFor(['recruiter'], ['hiring'], mapping)).toEqual(['recruiter', 'scheduler']);
  });

  it('a role no group maps stays as given, whatever their groups', () => {
    expect(customRolesFor(['analyst'], [], mapping)).toEqual(['analyst']);
    expect(customRolesFor(['analyst', 'auditor'], ['recruiters'], mapping)).toEqual(['analyst', 'recruiter']);
  });

  it('sorted, each once, whichever groups name it', () => {
    expect(customRolesFor(['zeta'], ['hiring', 'recruiters', 'leads'], mapping)).toEqual([
      'auditor',
      'recruiter',
      'scheduler',
      'zeta',
    ]);
  });

  it('a mapping of base roles only changes no custom role', () => {
    const baseOnly: RoleMapping = new Map([['owners', { groupName: 'Owners', role: 'owner', roles: [] }]]);
    expect(customRolesFor(['recruiter', 'auditor'], ['owners'], baseOnly)).toEqual(['auditor', 'recruiter']);
  });
});

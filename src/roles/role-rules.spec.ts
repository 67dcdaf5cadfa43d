import {
  catalogueChange,
  catalogueRefusal,
  changedFields,
  roleAfterEdit,
  rolesAfterReassignment,
  touchedRoles,
} from './role-rules';

const role = { key: 'recruiter', name: 'Recruiter', description: null, permissions: ['invitations:create'] };

describe(roleAfterEdit.name, () => {
  it('a new role: the name trimmed, the permissions distinct and in code-point order, no description', () => {
    expect(
      roleAfterEdit(null, { key: 'recruiter', name: ' Recruiter ', permissions: ['members:read', 'audit:read'] }),
    ).toEqual({ key: 'recruiter', name: 'Recruiter', description: null, permissions: ['audit:read', 'members:read'] });
  });

  it('an edit changes what it names; a description of null clears it', () => {
    const described = { ...role, description: 'Hires' };
    expect(roleAfterEdit(described, { name: 'Hiring' })).toEqual({ ...described, name: 'Hiring' });
    expect(roleAfterEdit(described, { description: null })).toEqual(role);
    expect(roleAfterEdit(role, { permissions: [] })).toEqual({ ...role, permissions: [] });
  });
});

describe(changedFields.name, () => {
  it('whether the name, the description or the permissions differ', () => {
    expect(changedFields(role, { ...role })).toBe(false);
    expect(changedFields(role, { ...role, name: 'x' })).toBe(true);
    expect(changedFields(role, { ...role, description: '' })).toBe(true);
    expect(changedFields(role, { ...role, permissions: ['audit:read'] })).toBe(true);
  });
});

describe(catalogueRefusal.name, () => {
  it('the first permission a role may not carry, unknown or owner-only; null when all may', () => {
    const product = new Set(['reports:export']);
    expect(catalogueRefusal(['reports:export', 'members:read'], product)).toBeNull();
    expect(catalogueRefusal(['members:read', 'billing:manage', 'scim:manage'], product)).toEqual({
      error: 'UNKNOWN_PERMISSION',
      permission: 'billing:manage',
    });
    expect(catalogueRefusal(['scim:manage'], product)).toEqual({
      error: 'PERMISSION_NOT_GRANTABLE',
      permission: 'scim:manage',
    });
  });
});

describe('reassignments and grants', () => {
  it('a holder of the deleted role holds the target instead, once', () => {
    expect(rolesAfterReassignment(['recruiter'], 'recruiter', 'sourcer')).toEqual(['sourcer']);
    expect(rolesAfterReassignment(['auditor', 'recruiter', 'sourcer'], 'recruiter', 'sourcer')).toEqual([
      'auditor',
      'sourcer',
    ]);
  });

  it('the roles touched by a replacement are those given and those taken away', () => {
    expect(touchedRoles(['a1', 'b1'], ['b1', 'c1'])).toEqual(['a1', 'c1']);
    expect(touchedRoles(['a1'], ['a1'])).toEqual([]);
  });
});

describe(catalogueChange.name, () => {
  it('the permissions added, removed and described anew', () => {
    const current = [
      { key: 'a:keep', description: 'same' },
      { key: 'b:drop', description: null },
      { key: 'c:describe', description: 'old' },
    ];
    const next = [
      { key: 'a:keep', description: 'same' },
      { key: 'c:describe', description: 'new' },
      { key: 'd:add', description: null },
    ];
    expect(catalogueChange(current, next)).toEqual({
      added: [{ key: 'd:add', description: null }],
      removed: ['b:drop'],
      described: [{ key: 'c:describe', description: 'new' }],
    });
  });
});

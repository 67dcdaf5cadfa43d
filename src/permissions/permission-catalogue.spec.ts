import {
  basePermissions,
  baseRoleHolds,
  firstMissing,
  isGrantable,
  isPermissionKey,
  isRoleKey,
  SERVICE_PERMISSION_KEYS,
} from './permission-catalogue';

describe('the permission catalogue', () => {
  it.each(['members:read', 'reports:export', 'a:b', 'billing_2:manage_all'])('%p is a permission key', (key) => {
    expect(isPermissionKey(key)).toBe(true);
  });

  it.each(['Reports:export', 'reports', 'reports:', ':export', 'reports:export:all', '1a:b', 'a-b:c', 'a:b ', 7, null])(
    '%p is not a permission key',
    (key) => {
      expect(isPermissionKey(key)).toBe(false);
    },
  );

  it('a permission key is 100 characters at most', () => {
    expect(isPermissionKey(`a:${'b'.repeat(98)}`)).toBe(true);
    expect(isPermissionKey(`a:${'b'.repeat(99)}`)).toBe(false);
  });

  it.each([
    ['recruiter', true],
    ['hr-lead_2', true],
    ['r', false],
    ['Recruiter', false],
    ['2nd', false],
    [`r${'x'.repeat(39)}`, true],
    [`r${'x'.repeat(40)}`, false],
  ])('role key %p: %p', (key, valid) => {
    expect(isRoleKey(key)).toBe(valid);
  });
});

describe(baseRoleHolds.name, () => {
  it('an owner holds every service permission', () => {
    expect(SERVICE_PERMISSION_KEYS.every((key) => baseRoleHolds('owner', key))).toBe(true);
  });

  it('an admin holds all but the owners’ own: roles:manage, scim:manage, sso:manage and setup_links:manage', () => {
    expect(SERVICE_PERMISSION_KEYS.filter((key) => !baseRoleHolds('admin', key))).toEqual([
      'roles:manage',
      'scim:manage',
      'sso:manage',
      'setup_links:manage',
    ]);
  });

  it.each(['member', null, 'Owner', 'super_admin'])('any other role (%p) holds members:read alone', (role) => {
    expect(SERVICE_PERMISSION_KEYS.filter((key) => baseRoleHolds(role, key))).toEqual(['members:read']);
  });
});

describe(basePermissions.name, () => {
  it('owners and admins hold the product’s permissions too; members do not', () => {
    expect(basePermissions('owner', ['reports:export'])).toEqual([...SERVICE_PERMISSION_KEYS, 'reports:export']);
    expect(basePermissions('admin', ['reports:export'])).toContain('reports:export');
    expect(basePermissions('admin', [])).not.toContain('roles:manage');
    expect(basePermissions('member', ['reports:export'])).toEqual(['members:read']);
  });
});

describe(isGrantable.name, () => {
  it('a custom role carries any product permission and the service’s but scim:manage', () => {
    expect(isGrantable('reports:export')).toBe(true);
    expect(isGrantable('roles:manage')).toBe(true);
    expect(isGrantable('scim:manage')).toBe(false);
  });
});

describe(firstMissing.name, () => {
  it('names the first permission not held, in code-point order, or null', () => {
    const held = new Set(['audit:read', 'members:read']);
    expect(firstMissing(['members:remove', 'audit:read', 'invitations:create'], held)).toBe('invitations:create');
    expect(firstMissing(['audit:read'], held)).toBeNull();
    expect(firstMissing([], held)).toBeNull();
  });
});

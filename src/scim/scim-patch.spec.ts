import { ScimError } from './scim-errors';
import { groupFilter, userFilter } from './scim-filter';
import { applyPatch, ENTERPRISE_USER_SCHEMA, parsePath, patchOperations } from './scim-patch';

const ops = (...operations: object[]) => patchOperations({ Operations: operations });

describe('patchOperations', () => {
  it('reads op names in any case', () => {
    expect(ops({ op: 'Replace', path: 'active', value: 'False' })).toEqual([
      { op: 'replace', path: 'active', value: 'False' },
    ]);
  });

  it.each([[{}], [{ Operations: [] }], [{ Operations: [{ op: 'move' }] }], [{ Operations: [{ path: 'x' }] }]])(
    'refuses %j with 400 invalidSyntax',
    (body) => {
      expect(() => patchOperations(body)).toThrow(ScimError);
    },
  );
});

describe('parsePath', () => {
  it('reads an attribute, a sub-attribute, a filter, and the schema URN in front', () => {
    expect(parsePath('name.GivenName')).toEqual({ attribute: 'name', sub: 'givenName' });
    expect(parsePath('urn:ietf:params:scim:schemas:core:2.0:User:userName')).toEqual({ attribute: 'userName' });
    expect(parsePath(`${ENTERPRISE_USER_SCHEMA}:department`)).toEqual({
      extension: ENTERPRISE_USER_SCHEMA,
      attribute: 'department',
    });
    expect(parsePath('members[value eq "a"]')).toMatchObject({ attribute: 'members', filter: { op: 'eq' } });
  });

  it('refuses what it cannot read', () => {
    expect(() => parsePath('emails[type eq')).toThrow(ScimError);
  });
});

describe('applyPatch', () => {
  const user = {
    userName: 'a@example.com',
    name: { givenName: 'A', familyName: 'B' },
    emails: [{ value: 'a@example.com', type: 'work', primary: true }],
    active: true,
  };

  it('replaces without a path (Okta), with dotted keys and the enterprise extension (Entra)', () => {
    const patched = applyPatch(
      user,
      ops({
        op: 'replace',
        value: { active: false, 'name.givenName': 'C', [ENTERPRISE_USER_SCHEMA]: { department: 'X' } },
      }),
      ['id'],
    );
    expect(patched).toEqual({
      ...user,
      active: false,
      name: { givenName: 'C', familyName: 'B' },
      [ENTERPRISE_USER_SCHEMA]: { department: 'X' },
    });
    expect(user.active).toBe(true);
  });

  it('a filter that matches: its element changes; one that matches nothing in a replace: the element is added', () => {
    const changed = applyPatch(user, ops({ op: 'replace', path: 'emails[type eq "WORK"].value', value: 'b@x.io' }), []);
    expect(changed.emails).toEqual([{ value: 'b@x.io', type: 'work', primary: true }]);
    const added = applyPatch(user, ops({ op: 'replace', path: 'emails[type eq "home"].value', value: 'h@x.io' }), []);
    expect(added.emails).toEqual([...user.emails, { type: 'home', value: 'h@x.io' }]);
  });

  it('members: add without repeats; remove by filter (Entra) and by value list', () => {
    const group = { displayName: 'G', members: [{ value: '1' }, { value: '2' }] };
    expect(
      applyPatch(group, ops({ op: 'add', path: 'members', value: [{ value: '2' }, { value: '3' }] }), []).members,
    ).toEqual([{ value: '1' }, { value: '2' }, { value: '3' }]);
    expect(applyPatch(group, ops({ op: 'Remove', path: 'members[value eq "1"]' }), []).members).toEqual([
      { value: '2' },
    ]);
    expect(applyPatch(group, ops({ op: 'remove', path: 'members', value: [{ value: '2' }] }), []).members).toEqual([
      { value: '1' },
    ]);
    expect(applyPatch(group, ops({ op: 'remove', path: 'members' }), []).members).toBeUndefined();
  });

  it('a remove without a path is noTarget; a read-only attribute is mutability', () => {
    expect(() => applyPatch(user, ops({ op: 'remove' }), [])).toThrow(
      expect.objectContaining({ response: expect.objectContaining({ scimType: 'noTarget' }) }),
    );
    expect(() => applyPatch(user, ops({ op: 'replace', path: 'id', value: 'x' }), ['id'])).toThrow(
      expect.objectContaining({ response: expect.objectContaining({ scimType: 'mutability' }) }),
    );
  });
});

describe('userFilter and groupFilter', () => {
  it('keep eq on the supported attributes, joined by and, names in any case', () => {
    expect(userFilter('UserName eq "A@b.c" and externalId eq "x"')).toEqual([
      { attribute: 'userName', value: 'A@b.c' },
      { attribute: 'externalId', value: 'x' },
    ]);
    expect(userFilter('emails.value eq "a@b.c"')).toEqual([{ attribute: 'emails.value', value: 'a@b.c' }]);
    expect(groupFilter('displayName eq "Eng"')).toEqual([{ attribute: 'displayName', value: 'Eng' }]);
  });

  it.each(['userName sw "a"', 'userName eq "a" or id eq "b"', 'title eq "x"', 'id eq 1', '(('])(
    'refuse %s',
    (filter) => {
      expect(() => userFilter(filter)).toThrow(
        expect.objectContaining({ response: expect.objectContaining({ scimType: 'invalidFilter' }) }),
      );
    },
  );
});

import { ScimError } from './scim-errors';
import { ENTERPRISE_USER_SCHEMA } from './scim-patch';
import { readProjection } from './scim-projection';
import { listResponse, USER_SCHEMA } from './scim-resources';

const user = {
  schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
  id: 'u1',
  externalId: 'x1',
  userName: 'ada@example.com',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [
    { value: 'ada@example.com', type: 'work', primary: true },
    { value: 'ada@home.example', type: 'home' },
  ],
  [ENTERPRISE_USER_SCHEMA]: { department: 'Engineering', costCenter: '42' },
  active: true,
  meta: { resourceType: 'User', created: 'c', lastModified: 'm', location: 'l' },
};
const shown = (parameters: { attributes?: unknown; excludedAttributes?: unknown }) =>
  readProjection(parameters).resource(user);

describe('readProjection', () => {
  it('without parameters, the resource as it is', () => {
    expect(shown({})).toEqual(user);
    expect(shown({ attributes: '', excludedAttributes: ' , ' })).toEqual(user);
  });

  describe('attributes', () => {
    it('"replaces the default set": only those named, with id and schemas (returned always)', () => {
      expect(shown({ attributes: 'userName' })).toEqual({
        schemas: user.schemas,
        id: 'u1',
        userName: 'ada@example.com',
      });
    });

    it('sub-attributes: name.givenName, and emails.value of each element', () => {
      expect(shown({ attributes: 'name.givenName,emails.value' })).toEqual({
        schemas: user.schemas,
        id: 'u1',
        name: { givenName: 'Ada' },
        emails: [{ value: 'ada@example.com' }, { value: 'ada@home.example' }],
      });
    });

    it('names in any case, with the core or the extension URN in front; a whole extension by its URN', () => {
      expect(
        shown({ attributes: [`${USER_SCHEMA.toUpperCase()}:USERNAME`, `${ENTERPRISE_USER_SCHEMA}:Department`] }),
      ).toEqual({
        schemas: user.schemas,
        id: 'u1',
        userName: 'ada@example.com',
        [ENTERPRISE_USER_SCHEMA]: { department: 'Engineering' },
      });
      expect(shown({ attributes: ENTERPRISE_USER_SCHEMA.toLowerCase() })).toEqual({
        schemas: user.schemas,
        id: 'u1',
        [ENTERPRISE_USER_SCHEMA]: user[ENTERPRISE_USER_SCHEMA],
      });
    });

    it('a whole attribute and one of its sub-attributes: the whole attribute; unknown names are ignored', () => {
      expect(shown({ attributes: 'name.givenName,name,nickName,meta.created' })).toEqual({
        schemas: user.schemas,
        id: 'u1',
        name: user.name,
        meta: { created: 'c' },
      });
    });
  });

  describe('excludedAttributes', () => {
    it('"removes from the default set": attributes and sub-attributes, never id or schemas', () => {
      const { name: _name, meta: _meta, ...rest } = user;
      expect(shown({ excludedAttributes: 'Name,meta,id,schemas' })).toEqual(rest);
      expect(shown({ excludedAttributes: 'emails.type,name.givenName' })).toEqual({
        ...user,
        name: { familyName: 'Lovelace' },
        emails: [{ value: 'ada@example.com', primary: true }, { value: 'ada@home.example' }],
      });
    });

    it('an attribute emptied of all its sub-attributes is left out', () => {
      const { name: _name, ...rest } = user;
      expect(shown({ excludedAttributes: 'name.givenName,name.familyName' })).toEqual(rest);
    });

    it('after attributes, when both are given', () => {
      expect(shown({ attributes: 'userName,name', excludedAttributes: 'name.familyName' })).toEqual({
        schemas: user.schemas,
        id: 'u1',
        userName: 'ada@example.com',
        name: { givenName: 'Ada' },
      });
    });
  });

  it('a ListResponse: each resource', () => {
    expect(readProjection({ attributes: 'userName' }).list(listResponse(3, 2, [user]))).toEqual(
      listResponse(3, 2, [{ schemas: user.schemas, id: 'u1', userName: 'ada@example.com' }]),
    );
  });

  it.each([
    [{ attributes: 'emails[type eq "work"].value' }],
    [{ attributes: 'user name' }],
    [{ excludedAttributes: 42 }],
    [{ attributes: [1] }],
    [{ attributes: Array(101).fill('userName').join(',') }],
  ])('%j: 400 invalidValue', (parameters) => {
    expect(() => readProjection(parameters)).toThrow(ScimError);
    try {
      readProjection(parameters);
    } catch (error) {
      expect((error as ScimError).getResponse()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    }
  });
});

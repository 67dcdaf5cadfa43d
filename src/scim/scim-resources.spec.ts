import { ScimUserEntity } from '../database/entities';
import { readPatchedUser, toUserResource, UNASSIGNED } from './scim-resources';

describe('readPatchedUser', () => {
  it.each([[{ userName: 'a@example.com' }], [{ userName: 'a@example.com', Active: null }]])(
    '%j: "active" unassigned is null, never read as true',
    (patched) => {
      expect(readPatchedUser(patched)).toMatchObject({ active: null });
    },
  );

  it('a false active is read as false', () => {
    expect(readPatchedUser({ userName: 'a@example.com', active: false })).toMatchObject({ active: false });
  });

  it('"userName" removed is 400 mutability: it is required', () => {
    expect(() => readPatchedUser({ active: true })).toThrow(
      expect.objectContaining({ response: expect.objectContaining({ scimType: 'mutability' }) }),
    );
  });
});

describe('toUserResource', () => {
  it('no emails stored: none shown (the address, the userName here, is not made into one)', () => {
    const row = {
      id: 'u1',
      userName: 'a@example.com',
      externalId: null,
      emailKey: 'a@example.com',
      active: 1,
      attributes: '{"name":{"givenName":"A"}}',
      createdAt: new Date(0),
      lastModified: new Date(0),
    } as ScimUserEntity;
    expect(toUserResource(row, 'http://x')).not.toHaveProperty('emails');
  });

  it('"active" unassigned (UNASSIGNED in the row) is not shown; false is', () => {
    const row = { attributes: '{}', active: UNASSIGNED, createdAt: new Date(0), lastModified: new Date(0) };
    expect(toUserResource(row as ScimUserEntity, 'http://x')).not.toHaveProperty('active');
    expect(toUserResource({ ...row, active: 0 } as ScimUserEntity, 'http://x')).toMatchObject({ active: false });
  });
});

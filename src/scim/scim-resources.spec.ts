import { ScimUserEntity } from '../database/entities';
import { readPatchedUser, toUserResource } from './scim-resources';

describe('readPatchedUser', () => {
  it.each([[{ userName: 'a@example.com' }], [{ userName: 'a@example.com', Active: null }]])(
    '%j: "active" unassigned is 400 mutability, never read as true',
    (patched) => {
      expect(() => readPatchedUser(patched)).toThrow(
        expect.objectContaining({ response: expect.objectContaining({ scimType: 'mutability' }) }),
      );
    },
  );

  it('a false active is read as false', () => {
    expect(readPatchedUser({ userName: 'a@example.com', active: false })).toMatchObject({ active: false });
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
});

/** OrgMembersService's members of the caller's organisation: removeMember (spec 4.10 rules 4–9), listMembers, changeRole. */

import { apiFailure } from '../../test/support/api-failure';
import { MembershipRemovalEntity } from '../database/entities';
import { ChangeRoleDto } from './dto/change-role.dto';
import { OrgMembersController } from './org-members.controller';
import { OrgMembersService } from './org-members.service';
import { caller, NOW, TENANT, useOrgMembersService } from './org-members.service.spec-fixtures';

describe(OrgMembersService.name, () => {
  const t = useOrgMembersService();

  describe('removeMember (spec 4.10 rules 4–9)', () => {
    it("rule 8: clears the member's tenant and role and answers {success:true}", async () => {
      t.identity.add({ id: 'member-1', tenantId: TENANT, role: 'member' });
      expect(await t.service().removeMember(caller(), 'member-1')).toEqual({ success: true });
      expect(t.identity.removed).toEqual(['member-1']);
      expect(t.identity.users.get('member-1')).toMatchObject({ tenantId: null, role: null });
      expect(await t.dataSource.getRepository(MembershipRemovalEntity).find()).toEqual([
        { tenantId: TENANT, userId: 'member-1', emailKey: expect.any(String), reason: 'removed', removedAt: NOW },
      ]);
    });

    it('rule 4: removing yourself is 400 before any look-up', async () => {
      t.identity.add({ id: 'owner-1', tenantId: TENANT, role: 'owner' });
      expect(await apiFailure(t.service().removeMember(caller(), 'owner-1'))).toEqual({
        status: 400,
        body: { error: 'Cannot remove yourself' },
      });
      expect(t.identity.lookups).toEqual([]);
      expect(t.identity.removed).toEqual([]);
    });

    it('rule 4: a store that matches ids loosely still never lets you remove yourself', async () => {
      t.identity.add({ id: 'owner-1', tenantId: TENANT, role: 'owner' });
      t.identity.findById = async (id: string) => t.identity.users.get(id.toLowerCase()) ?? null;
      expect(await apiFailure(t.service().removeMember(caller(), 'OWNER-1'))).toEqual({
        status: 400,
        body: { error: 'Cannot remove yourself' },
      });
      expect(t.identity.removed).toEqual([]);
    });

    it('rule 5: an unknown user is 404', async () => {
      expect(await apiFailure(t.service().removeMember(caller(), 'ghost'))).toEqual({
        status: 404,
        body: { error: 'User not found' },
      });
    });

    it.each([
      ['another tenant', 'tenant-2'],
      ['no tenant', null],
    ])('rule 6: a user of %s is 403', async (_, tenantId) => {
      t.identity.add({ id: 'outsider', tenantId, role: 'member' });
      expect(await apiFailure(t.service().removeMember(caller(), 'outsider'))).toEqual({
        status: 403,
        body: { error: 'User is not in your organisation' },
      });
      expect(t.identity.removed).toEqual([]);
    });

    it('rule 7: an admin cannot remove an owner', async () => {
      t.identity.add({ id: 'owner-2', tenantId: TENANT, role: 'owner' });
      expect(await apiFailure(t.service().removeMember(caller({ role: 'admin' }), 'owner-2'))).toEqual({
        status: 403,
        body: { error: 'Admins cannot remove owners' },
      });
      expect(t.identity.removed).toEqual([]);
    });

    it.each([
      ['admin', 'admin'],
      ['admin', 'member'],
      ['owner', 'owner'],
      ['owner', 'admin'],
    ])('rule 8: a caller with role %s may remove a %s', async (callerRole, targetRole) => {
      t.identity.add({ id: 'target', tenantId: TENANT, role: targetRole });
      expect(await t.service().removeMember(caller({ role: callerRole }), 'target')).toEqual({ success: true });
    });

    it('rule 9: a store failure is 500 "Failed to remove user"', async () => {
      t.identity.add({ id: 'member-1', tenantId: TENANT, role: 'member' });
      t.identity.failure = new Error('store down');
      expect(
        await apiFailure(t.service().removeMember(caller(), 'member-1'), OrgMembersController.prototype.removeMember),
      ).toEqual({ status: 500, body: { error: 'Failed to remove user' } });
    });
  });

  describe('listMembers', () => {
    it('asks the store for one row more than the page and turns it into nextCursor', async () => {
      for (const id of ['c', 'a', 'b'])
        t.identity.add({ id, email: `${id}@acme.example`, tenantId: TENANT, role: 'member' });
      t.identity.add({ id: 'elsewhere', tenantId: 'tenant-2', role: 'owner' });
      const first = await t.service().listMembers(caller(), { limit: '2' });
      expect(first).toEqual({
        members: [
          { id: 'a', email: 'a@acme.example', role: 'member' },
          { id: 'b', email: 'b@acme.example', role: 'member' },
        ],
        nextCursor: expect.any(String),
      });
      expect(await t.service().listMembers(caller(), { limit: '2', cursor: first.nextCursor })).toEqual({
        members: [{ id: 'c', email: 'c@acme.example', role: 'member' }],
      });
    });
  });

  describe('changeRole', () => {
    const role = (value: string) => Object.assign(new ChangeRoleDto(), { role: value });

    it('sets the role in the store and answers the member', async () => {
      t.identity.add({ id: 'member-1', email: 'm@acme.example', tenantId: TENANT, role: 'member' });
      expect(await t.service().changeRole(caller(), 'member-1', role('admin'))).toEqual({
        success: true,
        member: { id: 'member-1', email: 'm@acme.example', role: 'admin' },
      });
      expect(t.identity.roleChanges).toEqual([['member-1', 'admin']]);
    });

    it('your own id is 400 before any look-up', async () => {
      expect(await apiFailure(t.service().changeRole(caller(), 'owner-1', role('member')))).toEqual({
        status: 400,
        body: { error: 'Cannot change your own role' },
      });
      expect(t.identity.lookups).toEqual([]);
    });

    it('a store that matches ids loosely still never lets you change your own role', async () => {
      t.identity.add({ id: 'owner-1', tenantId: TENANT, role: 'owner' });
      t.identity.findById = async (id: string) => t.identity.users.get(id.toLowerCase()) ?? null;
      expect(await apiFailure(t.service().changeRole(caller(), 'OWNER-1', role('member')))).toEqual({
        status: 400,
        body: { error: 'Cannot change your own role' },
      });
      expect(t.identity.roleChanges).toEqual([]);
    });

    it.each([
      ['admin', 'owner', 'member', 'Admins cannot change owners'],
      ['admin', 'member', 'owner', 'Only owners can grant the owner role'],
    ])(
      'a caller with role %s changing a %s to %s is 403 "%s", nothing changed',
      async (callerRole, from, to, error) => {
        t.identity.add({ id: 'target', tenantId: TENANT, role: from });
        expect(await apiFailure(t.service().changeRole(caller({ role: callerRole }), 'target', role(to)))).toEqual({
          status: 403,
          body: { error },
        });
        expect(t.identity.roleChanges).toEqual([]);
      },
    );

    it('a store failure is 500 "Failed to update member"', async () => {
      t.identity.add({ id: 'target', tenantId: TENANT, role: 'member' });
      t.identity.failure = new Error('store down');
      expect(
        await apiFailure(
          t.service().changeRole(caller(), 'target', role('admin')),
          OrgMembersController.prototype.changeMemberRole,
        ),
      ).toEqual({
        status: 500,
        body: { error: 'Failed to update member' },
      });
    });
  });
});

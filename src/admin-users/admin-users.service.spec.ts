import { apiFailure } from '../../test/support/api-failure';
import { MemoryGrantsStore } from '../../test/support/memory-grants-store';
import { MemoryIdentityStore } from '../../test/support/memory-identity-store';
import { MemoryMembershipRemovals } from '../../test/support/memory-membership-removals';
import { RecordedAuditEvents } from '../../test/support/recorded-audit-events';
import { RecordedSessionEnds } from '../../test/support/recorded-session-ends';
import { TestClock } from '../../test/support/test-clock';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersService } from './admin-users.service';

const routes = AdminUsersController.prototype;
const ACTOR = { id: 'root', email: 'root@example.com' };
const NOW = new Date('2026-03-01T12:00:00.000Z');

describe(AdminUsersService.name, () => {
  let store: MemoryIdentityStore;
  let service: AdminUsersService;
  let audit: RecordedAuditEvents;
  let removals: MemoryMembershipRemovals;
  let sessions: RecordedSessionEnds;

  beforeEach(() => {
    store = new MemoryIdentityStore();
    audit = new RecordedAuditEvents();
    removals = new MemoryMembershipRemovals();
    sessions = new RecordedSessionEnds();
    service = new AdminUsersService(store, audit, new MemoryGrantsStore(), removals, new TestClock(NOW), sessions);
  });

  describe('listSuperAdmins', () => {
    it('passes limit and token through and reports total as the page size, nextToken only when present', async () => {
      store.page = { users: [store.add({ id: 'a', email: 'a@x.io', platformRole: 'super_admin' })], nextToken: 'n1' };
      expect(await service.listSuperAdmins({ limit: 1, token: 't0' })).toEqual({
        users: [{ id: 'a', email: 'a@x.io', platformRole: 'super_admin', tenantId: null, role: null }],
        total: 1,
        nextToken: 'n1',
      });
      expect(store.lastPageRequest).toEqual({ limit: 1, token: 't0' });
      store.page = { users: [] };
      expect(await service.listSuperAdmins({ limit: 60 })).toEqual({ users: [], total: 0 });
    });

    it('answers a token the store cannot read with 400, and other failures with 500 + details', async () => {
      expect(await apiFailure(service.listSuperAdmins({ limit: 5, token: 'bad' }))).toEqual({
        status: 400,
        body: { error: 'Invalid pagination token' },
      });
      jest.spyOn(store, 'listSuperAdmins').mockRejectedValueOnce(new Error('boom'));
      expect(await apiFailure(service.listSuperAdmins({ limit: 5 }), routes.listSuperAdmins)).toEqual({
        status: 500,
        body: { error: 'Failed to list super admins', details: 'boom' },
      });
    });
  });

  describe('grantSuperAdmin', () => {
    it('rule 3: 404 when the store finds no user with the same address, and nothing is granted', async () => {
      store.add({ id: 'near', email: 'xbob@example.com' });
      expect(await apiFailure(service.grantSuperAdmin({ email: 'bob@example.com' }, ACTOR))).toEqual({
        status: 404,
        body: { error: 'User not found with that email' },
      });
      expect(store.granted).toEqual([]);
      expect(audit.events).toEqual([]);
    });

    it('rule 4: does not grant twice', async () => {
      store.add({ id: 'b', email: 'bob@example.com', platformRole: 'super_admin' });
      expect(await apiFailure(service.grantSuperAdmin({ email: 'BOB@example.com' }, ACTOR))).toEqual({
        status: 400,
        body: { error: 'User is already a super admin' },
      });
      expect(store.granted).toEqual([]);
    });

    it('rule 5: grants to the found id and answers with the re-read user', async () => {
      store.add({ id: 'near', email: 'xbob@example.com' });
      store.add({ id: 'b', email: 'Bob@Example.com', tenantId: 't', role: 'member' });
      expect(await service.grantSuperAdmin({ email: 'bob@example.com' }, ACTOR)).toEqual({
        success: true,
        message: 'Super admin role granted',
        user: { id: 'b', email: 'Bob@Example.com', platformRole: 'super_admin', tenantId: 't', role: 'member' },
      });
      expect(store.granted).toEqual(['b']);
      expect(audit.events).toEqual([
        {
          type: 'super_admin.granted',
          tenantId: null,
          actor: ACTOR,
          target: { type: 'user', id: 'b', email: 'Bob@Example.com' },
          data: { platformRole: 'super_admin' },
        },
      ]);
    });

    it('no event when the store fails to grant', async () => {
      store.add({ id: 'b', email: 'bob@example.com' });
      jest.spyOn(store, 'grantSuperAdmin').mockRejectedValue(new Error('timeout'));
      expect(
        (await apiFailure(service.grantSuperAdmin({ email: 'bob@example.com' }, ACTOR), routes.grantSuperAdmin)).status,
      ).toBe(500);
      expect(audit.events).toEqual([]);
    });
  });

  describe('getUser and deleteUser', () => {
    it('404 "User not found" for an unknown id, and deletes nothing', async () => {
      expect(await apiFailure(service.getUser('nobody'))).toEqual({ status: 404, body: { error: 'User not found' } });
      expect(await apiFailure(service.deleteUser('nobody', ACTOR))).toEqual({
        status: 404,
        body: { error: 'User not found' },
      });
      expect(store.deleted).toEqual([]);
      expect(audit.events).toEqual([]);
      expect(sessions.ends).toEqual([]);
    });

    it('deletes a found user, and ends all of its sessions', async () => {
      store.add({ id: 'd', email: 'd@example.com' });
      expect(await service.deleteUser('d', ACTOR)).toEqual({ success: true, message: 'User deleted' });
      expect(store.deleted).toEqual(['d']);
      expect(removals.remembered).toEqual([]);
      expect(audit.events).toEqual([
        {
          type: 'user.deleted',
          tenantId: null,
          actor: ACTOR,
          target: { type: 'user', id: 'd', email: 'd@example.com' },
          data: { platformRole: null, role: null },
        },
      ]);
      expect(sessions.ends).toEqual([{ of: 'd', reason: 'account_deleted' }]);
    });

    it('the account leaves facts behind, first: for its organisation and those it asked to join', async () => {
      store.add({ id: 'm', email: 'm@example.com', tenantId: 't-1', role: 'member', userType: 'org' });
      removals.requests.set('m', ['t-2', 't-1']);
      jest.spyOn(store, 'deleteUser').mockImplementation(async () => {
        expect(removals.remembered).toHaveLength(2);
      });
      expect(await service.deleteUser('m', ACTOR)).toEqual({ success: true, message: 'User deleted' });
      const fact = { userId: 'm', email: 'm@example.com', reason: 'account_deleted', at: NOW };
      expect(removals.remembered).toEqual([
        { ...fact, tenantId: 't-1' },
        { ...fact, tenantId: 't-2' },
      ]);
    });

    it('500 with details when the store fails', async () => {
      jest.spyOn(store, 'findById').mockRejectedValue(new Error('timeout'));
      expect(await apiFailure(service.getUser('x'), routes.getUser)).toEqual({
        status: 500,
        body: { error: 'Failed to get user', details: 'timeout' },
      });
      expect(await apiFailure(service.deleteUser('x', ACTOR), routes.deleteUser)).toEqual({
        status: 500,
        body: { error: 'Failed to delete user', details: 'timeout' },
      });
      expect(audit.events).toEqual([]);
    });

    it('a failure to record the event after the deletion is logged, and the deletion still answers success', async () => {
      store.add({ id: 'd', email: 'd@example.com' });
      jest.spyOn(audit, 'record').mockRejectedValue(new Error('database down'));
      expect(await service.deleteUser('d', ACTOR)).toEqual({ success: true, message: 'User deleted' });
    });
  });
});

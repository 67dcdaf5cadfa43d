import { SessionsStore } from '../src/auth/sessions.store';
import { InvitationEntity } from '../src/database/entities';
import { sessionCookie } from './support/factories';
import { INVITE_ERRORS, REMOVE_MEMBER_ERRORS } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

/**
 * Every org route confirms the caller against the identity store, so that a
 * removal, demotion or deletion takes effect at once, not when the caller's id token expires.
 * Each caller below holds a token issued before the change; the store no longer agrees with it.
 */
describe('org routes: authorisation that takes effect at once', () => {
  const { t, factory, org } = useOrganisationSuite();
  let admin: TestUser;
  let adminCookie: string;

  beforeEach(async () => {
    admin = await factory.member(org.tenant.id, { role: 'admin' });
    adminCookie = await sessionCookie(t, admin); // issued now, before the change each test makes
  });

  /** The changes an operator or an owner makes to the admin after the token was issued. */
  const changes: [string, () => Promise<unknown>, { error: string }, { error: string }][] = [
    [
      "a removed admin's old token",
      async () => {
        const res = await t.http.delete(`/api/org/users/${admin.id}`).set('Cookie', await sessionCookie(t, org.owner));
        expect(res.status).toBe(200);
      },
      INVITE_ERRORS.notOrgUser,
      REMOVE_MEMBER_ERRORS.notOrgUser,
    ],
    [
      "a demoted admin's old token",
      () => t.testIdentity.updateUser(admin.id, { role: 'member' }),
      INVITE_ERRORS.notOwnerOrAdmin,
      REMOVE_MEMBER_ERRORS.notOwnerOrAdmin,
    ],
    [
      "a deleted user's old token",
      () => t.identity.deleteUser(admin.id),
      INVITE_ERRORS.notOrgUser,
      REMOVE_MEMBER_ERRORS.notOrgUser,
    ],
    [
      'a token whose claims name another tenant than the store does',
      async () => t.testIdentity.updateUser(admin.id, { tenantId: (await factory.tenant()).id }),
      INVITE_ERRORS.notOrgUser,
      REMOVE_MEMBER_ERRORS.notOrgUser,
    ],
  ];

  const invitationRows = () => t.dataSource.getRepository(InvitationEntity).findBy({ tenantId: org.tenant.id });

  describe('POST /api/org/invite', () => {
    const invite = (cookie: string, body: object = { email: 'outsider@example.com', role: 'admin' }) =>
      t.http.post('/api/org/invite').set('Cookie', cookie).send(body);

    it('where the claims and the store agree, the admin invites: 200 (control)', async () => {
      const res = await invite(adminCookie);
      expect(res.status).toBe(200);
      expect(await invitationRows()).toHaveLength(1);
    });

    it.each(changes)(
      '%s is refused with the spec message for the stored values, and nothing is stored',
      async (_, change, expected) => {
        await change();
        const res = await invite(adminCookie);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(expected);
        expect(await invitationRows()).toEqual([]);
      },
    );

    it('the body checks of spec 4.9 still come first: a removed admin with no e-mail gets 400 "Email is required"', async () => {
      await t.identity.removeFromTenant(admin.id);
      const res = await invalidRequest(() => invite(adminCookie, { role: 'member' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.emailRequired);
    });

    it('the claims are checked before the store: a member token is 403 without reading the store', async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const reads = jest.spyOn(t.identity, 'findOrgCaller');
      const res = await invite(await sessionCookie(t, member));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVITE_ERRORS.notOwnerOrAdmin);
      expect(reads).not.toHaveBeenCalled();
    });

    it('costs exactly one identity-store read of the caller, with its tenant status and its session', async () => {
      const reads = jest.spyOn(t.identity, 'findOrgCaller');
      const sessionReads = jest.spyOn(t.app.get(SessionsStore), 'probe');
      expect((await invite(adminCookie)).status).toBe(200);
      expect(reads.mock.calls.map(([ask, tenantId]) => [ask.userId, tenantId])).toEqual([[admin.id, org.tenant.id]]);
      expect(sessionReads).not.toHaveBeenCalled();
    });

    it('an identity store that fails is the spec\'s 500 "Failed to create invitation", with nothing stored', async () => {
      jest.spyOn(t.identity, 'findOrgCaller').mockRejectedValue(new Error('store down'));
      const res = await invite(adminCookie);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(INVITE_ERRORS.createFailed);
      expect(await invitationRows()).toEqual([]);
    });
  });

  describe('DELETE /api/org/users/{id}', () => {
    const remove = (id: string, cookie: string) =>
      t.http.delete(`/api/org/users/${encodeURIComponent(id)}`).set('Cookie', cookie);

    it.each(changes)(
      '%s is refused with the spec message for the stored values, and nobody is removed',
      async (_, change, __, expected) => {
        await change();
        const res = await remove(org.owner.id, adminCookie);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(expected);
        expect(await t.identity.findById(org.owner.id)).toMatchObject({ tenantId: org.tenant.id, role: 'owner' });
      },
    );

    it('an owner demoted to admin acts as an admin at once: 403 "Admins cannot remove owners"', async () => {
      const otherOwner = await factory.member(org.tenant.id, { role: 'owner' });
      const ownerCookie = await sessionCookie(t, org.owner);
      await t.testIdentity.updateUser(org.owner.id, { role: 'admin' });
      const res = await remove(otherOwner.id, ownerCookie);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.adminCannotRemoveOwner);
      expect(await t.identity.findById(otherOwner.id)).toMatchObject({ tenantId: org.tenant.id, role: 'owner' });
    });

    it("costs one identity-store read of the caller (and the spec's read of the target)", async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const callerReads = jest.spyOn(t.identity, 'findOrgCaller');
      const reads = jest.spyOn(t.identity, 'findById');
      const res = await remove(member.id, adminCookie);
      expect(res.status).toBe(200);
      expect(callerReads.mock.calls.map(([ask]) => ask.userId)).toEqual([admin.id]);
      expect(reads.mock.calls.slice(-1)).toEqual([[member.id]]);
    });

    it('an identity store that fails is the spec\'s 500 "Failed to remove user"', async () => {
      jest.spyOn(t.identity, 'findOrgCaller').mockRejectedValue(new Error('store down'));
      const res = await remove(org.owner.id, adminCookie);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.removeFailed);
    });
  });
});

/** JoiningService.join (POST /api/invitations/{token}/join): the signed-in invitee joins by the invitation, its rules in order. */

import { apiFailure } from '../../test/support/api-failure';
import { ORG_USER_TYPE } from '../identity/identity-store';
import { JOIN_ATTEMPTS, JoiningService } from './joining.service';
import {
  caller,
  DAY,
  EMAIL,
  JoiningFakes,
  NOW,
  OTHER_TENANT,
  refused,
  role,
  TENANT,
  TOKEN,
} from './joining.service.spec-fixtures';

describe(JoiningService.name, () => {
  let fakes: JoiningFakes;
  const service = (store?: 'local' | 'pool') => fakes.service(store);
  beforeEach(() => (fakes = new JoiningFakes()));

  describe('join by invitation', () => {
    it('rule 1: no session is 401, nothing written', async () => {
      fakes.invitations.add();
      expect((await apiFailure(service().join(undefined, TOKEN))).status).toBe(401);
      expect(fakes.memberships.attempted).toEqual([]);
    });

    it.each([
      ['an empty token', () => ''],
      ['an unknown token', () => 'no-such-invitation'],
      ['a revoked invitation', () => fakes.invitations.add({ status: 'revoked' }).id],
    ])('rule 2: %s is 404 INVALID', async (_, token) => {
      expect(await apiFailure(service().join(caller(), token()))).toEqual({ status: 404, body: refused('INVALID') });
      expect(fakes.memberships.attempted).toEqual([]);
    });

    it('rule 2: an accepted invitation is 400 ALREADY_USED, even past its expiry', async () => {
      fakes.invitations.add({ status: 'accepted', expiresAt: new Date(NOW.getTime() - DAY) });
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({
        status: 400,
        body: refused('ALREADY_USED'),
      });
    });

    it('rule 2: an invitation past expiresAt is 400 EXPIRED; at expiresAt it still joins', async () => {
      fakes.invitations.add({ expiresAt: new Date(NOW.getTime() - 1) });
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({ status: 400, body: refused('EXPIRED') });
      fakes.invitations.add({ expiresAt: NOW });
      expect(await service().join(caller(), TOKEN)).toMatchObject({ success: true });
    });

    it('a suspended organisation’s invitation is 403 ORGANISATION_SUSPENDED; a deleted one’s is 404 INVALID', async () => {
      fakes.invitations.add();
      fakes.tenants.statuses.set(TENANT, 'suspended');
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({
        status: 403,
        body: refused('ORGANISATION_SUSPENDED'),
      });
      fakes.tenants.statuses.set(TENANT, 'deleted');
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({ status: 404, body: refused('INVALID') });
      expect(fakes.memberships.attempted).toEqual([]);
    });

    it('rule 3: a session with another address is 403 EMAIL_MISMATCH; the address’s case does not matter', async () => {
      fakes.invitations.add();
      expect(await apiFailure(service().join(caller({ email: 'someone@example.com' }), TOKEN))).toEqual({
        status: 403,
        body: refused('EMAIL_MISMATCH'),
      });
      expect(await service().join(caller({ email: 'Invitee@Example.com' }), TOKEN)).toMatchObject({ success: true });
    });

    it('rule 4: an address not verified is 403 EMAIL_NOT_VERIFIED, as the store judges the claim; a local issuer may leave it out', async () => {
      fakes.invitations.add();
      const unverified = { status: 403, body: refused('EMAIL_NOT_VERIFIED') };
      expect(await apiFailure(service().join(caller({ emailVerified: false }), TOKEN))).toEqual(unverified);
      // A user pool's sessions always carry the claim: there one without it is unverified.
      const judge = jest.spyOn(fakes.identity, 'claimDeniesVerification').mockReturnValueOnce(true);
      expect(await apiFailure(service('pool').join(caller({ emailVerified: undefined }), TOKEN))).toEqual(unverified);
      expect(judge).toHaveBeenLastCalledWith(undefined);
      expect(await service().join(caller({ emailVerified: undefined }), TOKEN)).toMatchObject({ success: true });
    });

    it('rule 5: a member of another organisation is 409 MEMBER_OF_ANOTHER_ORGANISATION', async () => {
      fakes.invitations.add();
      fakes.identity.add({ id: 'u-1', email: EMAIL, userType: ORG_USER_TYPE, tenantId: OTHER_TENANT, role: 'member' });
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({
        status: 409,
        body: refused('MEMBER_OF_ANOTHER_ORGANISATION'),
      });
      expect(fakes.memberships.attempted).toEqual([]);
    });

    it('rule 5: an address another account holds is 409 EMAIL_IN_USE', async () => {
      fakes.invitations.add();
      fakes.identity.add({ id: 'u-other', email: EMAIL });
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({ status: 409, body: refused('EMAIL_IN_USE') });
      expect(fakes.memberships.attempted).toEqual([]);
    });

    it('rule 6: joins with the invitation’s role and its custom roles as defined now; counted as accepted', async () => {
      const invitation = fakes.invitations.add({ role: 'admin' });
      fakes.customRoles.defined.set(TENANT, [role('auditor')]);
      fakes.customRoles.carried.set(TOKEN, ['auditor', 'deleted-since']);
      expect(await service().join(caller(), TOKEN)).toEqual({
        success: true,
        tenantId: TENANT,
        role: 'admin',
        userId: 'u-1',
      });
      expect(fakes.memberships.written).toHaveLength(1);
      expect(fakes.memberships.written[0]).toMatchObject({
        tenantId: TENANT,
        invitation,
        invitee: { id: 'u-1', email: EMAIL },
        role: 'admin',
        customRoles: [role('auditor')],
        activatesTenant: false,
        now: NOW,
        membership: { store: 'local', stored: null },
      });
      expect(fakes.accepted).toBe(1);
    });

    it('rule 6: a member of this organisation keeps the role they hold, and gets no custom roles from it', async () => {
      fakes.invitations.add({ role: 'admin' });
      fakes.customRoles.defined.set(TENANT, [role('auditor')]);
      fakes.customRoles.carried.set(TOKEN, ['auditor']);
      fakes.identity.add({ id: 'u-1', email: EMAIL, userType: ORG_USER_TYPE, tenantId: TENANT, role: 'owner' });
      expect(await service().join(caller(), TOKEN)).toMatchObject({ role: 'owner' });
      expect(fakes.memberships.written[0]).toMatchObject({ role: 'owner', customRoles: [] });
    });

    it.each([
      ['the owner of a pending_owner organisation activates it', 'owner', 'pending_owner', true],
      ['an admin of a pending_owner organisation does not', 'admin', 'pending_owner', false],
      ['the owner of an active organisation does not', 'owner', 'active', false],
    ] as const)('%s', async (_, invitedRole, status, activates) => {
      fakes.invitations.add({ role: invitedRole });
      fakes.tenants.statuses.set(TENANT, status);
      await service().join(caller(), TOKEN);
      expect(fakes.memberships.written[0].activatesTenant).toBe(activates);
    });

    it('a join that lost to a parallel change is judged again: the loser gets its refusal', async () => {
      fakes.invitations.add();
      fakes.memberships.outcomes = [
        {
          commits: false,
          before: () =>
            fakes.identity.add({ id: 'u-1', email: EMAIL, userType: ORG_USER_TYPE, tenantId: OTHER_TENANT }),
        },
      ];
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({
        status: 409,
        body: refused('MEMBER_OF_ANOTHER_ORGANISATION'),
      });
      expect(fakes.memberships.written).toEqual([]);
      expect(fakes.accepted).toBe(0);
    });

    it('an insert that failed (a parallel join made the row first) is judged again and may then join', async () => {
      fakes.invitations.add();
      fakes.memberships.outcomes = [{ commits: new Error('unique violation') }];
      expect(await service().join(caller(), TOKEN)).toMatchObject({ success: true });
      expect(fakes.memberships.attempted).toHaveLength(2);
      expect(fakes.memberships.written).toHaveLength(1);
    });

    it(`gives up after ${JOIN_ATTEMPTS} lost attempts with the last failure`, async () => {
      fakes.invitations.add();
      const last = new Error('the last one');
      fakes.memberships.outcomes = [{ commits: false }, { commits: false }, { commits: last }];
      await expect(service().join(caller(), TOKEN)).rejects.toBe(last);
      expect(fakes.memberships.attempted).toHaveLength(JOIN_ATTEMPTS);
      expect(fakes.accepted).toBe(0);
    });

    describe('on the user pool', () => {
      beforeEach(() => fakes.identity.add({ id: 'u-1', email: EMAIL }));

      it('a grant on its way to another organisation counts as a membership: 409 MEMBER_OF_ANOTHER_ORGANISATION', async () => {
        fakes.invitations.add();
        fakes.grants.pending.set('u-1', { tenantId: OTHER_TENANT, role: 'member' });
        expect(await apiFailure(service('pool').join(caller(), TOKEN))).toEqual({
          status: 409,
          body: refused('MEMBER_OF_ANOTHER_ORGANISATION'),
        });
      });

      it('an account gone from the pool is 401', async () => {
        fakes.invitations.add();
        fakes.identity.users.delete('u-1');
        expect((await apiFailure(service('pool').join(caller(), TOKEN))).status).toBe(401);
        expect(fakes.memberships.attempted).toEqual([]);
      });

      it('the membership is a grant; while the pool has yet to take it the answer is pending', async () => {
        fakes.invitations.add({ role: 'member' });
        fakes.worker.poolTakes = false;
        expect(await service('pool').join(caller(), TOKEN)).toEqual({
          success: true,
          tenantId: TENANT,
          role: 'member',
          userId: 'u-1',
          pending: true,
        });
        expect(fakes.worker.sent).toMatchObject([{ userId: 'u-1', tenantId: TENANT, role: 'member' }]);
      });

      it('a member the pool has already, in this role: no new grant, and joined at once', async () => {
        fakes.invitations.add({ role: 'member' });
        fakes.identity.add({ id: 'u-1', email: EMAIL, userType: ORG_USER_TYPE, tenantId: TENANT, role: 'member' });
        expect(await service('pool').join(caller(), TOKEN)).not.toHaveProperty('pending');
        expect(fakes.worker.sent).toEqual([]);
        expect(fakes.memberships.written[0].membership).toMatchObject({ store: 'pool', grant: null });
      });
    });
  });
});

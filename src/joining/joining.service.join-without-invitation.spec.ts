/** JoiningService.joinWithoutInvitation: a join no invitation leads to (a domain's, an approved request's, single sign-on's, SCIM's). */

import { apiFailure } from '../../test/support/api-failure';
import { RequiredUpdate } from '../database/atomic-writer';
import { ORG_USER_TYPE } from '../identity/identity-store';
import { JOIN_ATTEMPTS, JoiningService } from './joining.service';
import { EMAIL, JoiningFakes, NOW, OTHER_TENANT, role, TENANT } from './joining.service.spec-fixtures';

describe(JoiningService.name, () => {
  let fakes: JoiningFakes;
  const service = (store?: 'local' | 'pool') => fakes.service(store);
  beforeEach(() => (fakes = new JoiningFakes()));

  describe('joinWithoutInvitation', () => {
    const member = { id: 'u-1', email: EMAIL };
    const alongside = (now: Date) => ({
      required: [['decided at', [now.toISOString()]] as RequiredUpdate],
      events: [],
    });

    it('joins with the role given, no invitation, no custom roles, the domain’s compare-and-sets in its transaction', async () => {
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: true,
        inPool: true,
      });
      expect(fakes.memberships.written[0]).toMatchObject({
        tenantId: TENANT,
        invitation: null,
        invitee: member,
        role: 'member',
        customRoles: [],
        activatesTenant: false,
        alongside: { required: [['decided at', [NOW.toISOString()]]], events: [] },
      });
    });

    it('the custom roles named are granted as defined then: one deleted is not', async () => {
      fakes.customRoles.defined.set(TENANT, [role('auditor'), role('billing')]);
      await service().joinWithoutInvitation(member, TENANT, 'member', alongside, {
        customRoles: ['auditor', 'deleted-since'],
      });
      expect(fakes.memberships.written[0].customRoles).toEqual([role('auditor')]);
    });

    it('a member of another organisation: not joined, that organisation named; nothing written', async () => {
      fakes.identity.add({ ...member, userType: ORG_USER_TYPE, tenantId: OTHER_TENANT, role: 'member' });
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: false,
        memberOf: OTHER_TENANT,
      });
      expect(fakes.memberships.attempted).toEqual([]);
    });

    it('a member of this organisation already: not joined, this organisation named', async () => {
      fakes.identity.add({ ...member, userType: ORG_USER_TYPE, tenantId: TENANT, role: 'admin' });
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: false,
        memberOf: TENANT,
      });
    });

    it('an address another account holds: not joined, e-mail in use', async () => {
      fakes.identity.add({ id: 'u-other', email: EMAIL });
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: false,
        memberOf: '',
        emailInUse: true,
      });
      expect(fakes.memberships.attempted).toEqual([]);
    });

    it('an account gone from the pool: account deleted when it need not exist there, else 401', async () => {
      expect(
        await service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside, { mustExistInPool: false }),
      ).toEqual({ joined: false, memberOf: '', accountDeleted: true });
      expect(
        (await apiFailure(service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside))).status,
      ).toBe(401);
      expect(fakes.memberships.attempted).toEqual([]);
    });

    it('a join that lost to a parallel one is judged again: then a member of the organisation that won', async () => {
      fakes.identity.add(member);
      fakes.memberships.outcomes = [
        {
          commits: false,
          before: () => fakes.grants.pending.set(member.id, { tenantId: OTHER_TENANT, role: 'member' }),
        },
      ];
      expect(await service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: false,
        memberOf: OTHER_TENANT,
      });
      expect(fakes.memberships.written).toEqual([]);
    });

    it(`throws the last failure after ${JOIN_ATTEMPTS} lost attempts`, async () => {
      const last = new Error('the last one');
      fakes.memberships.outcomes = [{ commits: false }, { commits: new Error('first') }, { commits: last }];
      await expect(service().joinWithoutInvitation(member, TENANT, 'member', alongside)).rejects.toBe(last);
      expect(fakes.memberships.attempted).toHaveLength(JOIN_ATTEMPTS);
    });

    it('on the pool: joined, not yet in the pool while the grant is on its way', async () => {
      fakes.identity.add(member);
      fakes.worker.poolTakes = false;
      expect(await service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: true,
        inPool: false,
      });
    });
  });

  describe('joinWithoutInvitation, as SCIM provisions', () => {
    const member = { id: 'u-1', email: EMAIL };
    const alongside = () => ({ required: [], events: [], undo: [['undo the SCIM row', []]] as RequiredUpdate[] });

    it('setsRole: a member of this organisation takes the role given, in a join as read', async () => {
      const stored = fakes.identity.add({ ...member, userType: ORG_USER_TYPE, tenantId: TENANT, role: 'member' });
      expect(await service().joinWithoutInvitation(member, TENANT, 'admin', alongside, { setsRole: true })).toEqual({
        joined: true,
        inPool: true,
      });
      expect(fakes.memberships.written[0]).toMatchObject({ role: 'admin', membership: { store: 'local', stored } });
    });

    it('setsRole: a member of another organisation is still not joined', async () => {
      fakes.identity.add({ ...member, userType: ORG_USER_TYPE, tenantId: OTHER_TENANT, role: 'member' });
      expect(await service().joinWithoutInvitation(member, TENANT, 'admin', alongside, { setsRole: true })).toEqual({
        joined: false,
        memberOf: OTHER_TENANT,
      });
    });

    it('once: a lost race is answered changed after one attempt; a failure is thrown at once', async () => {
      fakes.memberships.outcomes = [{ commits: false }];
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside, { once: true })).toEqual({
        joined: false,
        memberOf: '',
        changed: true,
      });
      const failure = new Error('a unique index');
      fakes.memberships.outcomes = [{ commits: failure }];
      await expect(service().joinWithoutInvitation(member, TENANT, 'member', alongside, { once: true })).rejects.toBe(
        failure,
      );
      expect(fakes.memberships.attempted).toHaveLength(2);
    });

    it('a new account on the local store: the users row is made by the join', async () => {
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside, { account: 'new' })).toEqual({
        joined: true,
        inPool: true,
      });
      expect(fakes.memberships.written[0].membership).toEqual({ store: 'local', stored: null });
    });

    it('a new account on the pool: made once the rows are in, before the grant is sent', async () => {
      const order: string[] = [];
      fakes.identity.createAccount = async (id, email) => {
        order.push(
          `account after ${fakes.memberships.written.length} join(s), ${fakes.worker.sent.length} grant(s) sent`,
        );
        fakes.identity.add({ id, email });
        return id;
      };
      expect(
        await service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside, { account: 'new' }),
      ).toEqual({ joined: true, inPool: true });
      expect(order).toEqual(['account after 1 join(s), 0 grant(s) sent']);
      expect(fakes.worker.sent).toMatchObject([{ userId: member.id, tenantId: TENANT, role: 'member' }]);
      expect(fakes.memberships.takenBack).toEqual([]);
    });

    it('a new account the pool refuses: the rows are taken back, no grant is sent, the refusal thrown', async () => {
      const refused = new Error('UsernameExistsException');
      fakes.identity.createAccount = () => Promise.reject(refused);
      await expect(
        service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside, { account: 'new', once: true }),
      ).rejects.toBe(refused);
      expect(fakes.memberships.takenBack).toEqual(fakes.memberships.written);
      expect(fakes.memberships.takenBack).toHaveLength(1);
      expect(fakes.worker.sent).toEqual([]);
    });
  });
});

import { apiFailure } from '../../test/support/api-failure';
import { MemoryIdentityStore } from '../../test/support/memory-identity-store';
import { TestClock } from '../../test/support/test-clock';
import { Caller } from '../auth/caller';
import { RequiredUpdate } from '../database/atomic-writer';
import { InvitationEntity, MembershipGrantEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { ORG_USER_TYPE } from '../identity/identity-store';
import { InvitationsStore } from '../invitations/invitations.store';
import { Metrics } from '../metrics/metrics';
import { GrantsStore, RoleDefinition } from '../permissions/grants.store';
import { JOIN_ATTEMPTS, JoiningService } from './joining.service';
import { LocalMembershipBackend, PoolMembershipBackend } from './membership-backend';
import { MembershipGrantsRepository } from './membership-grants.repository';
import { MembershipGrantsWorker } from './membership-grants.worker';
import { Join, MembershipsRepository } from './memberships.repository';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const TOKEN = 'invitation-1';
const TENANT = 'tenant-1';
const OTHER_TENANT = 'tenant-2';
const EMAIL = 'invitee@example.com';
const refused = (error: string) => ({ success: false, error });

class FakeInvitations implements Pick<InvitationsStore, 'findById'> {
  readonly rows = new Map<string, InvitationEntity>();
  add(overrides: Partial<InvitationEntity> = {}): InvitationEntity {
    const row: InvitationEntity = {
      id: TOKEN,
      tenantId: TENANT,
      email: EMAIL,
      role: 'admin',
      status: 'pending',
      expiresAt: new Date(NOW.getTime() + 7 * DAY),
      invitedBy: 'inviter',
      createdAt: NOW,
      ...overrides,
    };
    this.rows.set(row.id, row);
    return row;
  }
  async findById(id: string) {
    const row = this.rows.get(id);
    return row ? { ...row } : null;
  }
}

class FakeTenants implements Pick<TenantStatusReader, 'statusOf'> {
  readonly statuses = new Map<string, TenantStatus>([
    [TENANT, 'active'],
    [OTHER_TENANT, 'active'],
  ]);
  async statusOf(tenantId: string) {
    return this.statuses.get(tenantId) ?? null;
  }
}

/** The join's transaction: each join recorded; `outcomes` answers the next ones (true: written) before they are. */
class FakeMemberships implements Pick<MembershipsRepository, 'join' | 'takeBack'> {
  readonly written: Join[] = [];
  readonly takenBack: Join[] = [];
  readonly attempted: Join[] = [];
  /** Per attempt, in order: whether it commits, or the error it throws; `before` runs first (a parallel change). */
  outcomes: { commits: boolean | Error; before?: () => void }[] = [];
  async join(join: Join) {
    this.attempted.push(join);
    const next = this.outcomes.shift() ?? { commits: true };
    next.before?.();
    if (next.commits instanceof Error) throw next.commits;
    if (!next.commits) return null;
    this.written.push(join);
    return [];
  }
  async takeBack(join: Join) {
    this.takenBack.push(join);
  }
}

/** Grants on their way to the pool, by user id. */
class FakeGrants implements Pick<MembershipGrantsRepository, 'pendingFor' | 'versionOf' | 'versionUnchanged'> {
  readonly pending = new Map<string, { tenantId: string; role: string }>();
  async pendingFor(userId: string) {
    return this.pending.get(userId) ?? null;
  }
  async versionOf() {
    return 0;
  }
  versionUnchanged(userId: string, version: number): RequiredUpdate {
    return ['version unchanged', [userId, version]];
  }
}

/** The grant's transaction, then the pool's write: `poolTakes` says whether the pool took it. */
class FakeGrantsWorker implements Pick<MembershipGrantsWorker, 'claimedGrant' | 'joinAndWrite'> {
  poolTakes = true;
  readonly sent: MembershipGrantEntity[] = [];
  claimedGrant(userId: string, tenantId: string, role: string, now: Date) {
    return { userId, tenantId, role, createdAt: now } as MembershipGrantEntity;
  }
  async joinAndWrite(grant: MembershipGrantEntity, join: () => Promise<boolean>) {
    if (!(await join())) return null;
    this.sent.push(grant);
    return this.poolTakes;
  }
}

const role = (key: string): RoleDefinition => ({
  key,
  name: key,
  description: null,
  permissions: [],
  version: 1,
  createdAt: NOW,
  updatedAt: NOW,
});

/** Custom roles defined per tenant, and carried per invitation. */
class FakeCustomRoles implements Pick<GrantsStore, 'rolesOfInvitations' | 'roles'> {
  readonly defined = new Map<string, RoleDefinition[]>();
  readonly carried = new Map<string, string[]>();
  async rolesOfInvitations(invitationIds: string[]) {
    return new Map(invitationIds.filter((id) => this.carried.has(id)).map((id) => [id, this.carried.get(id)!]));
  }
  async roles(tenantId: string) {
    return this.defined.get(tenantId) ?? [];
  }
}

describe(JoiningService.name, () => {
  let invitations: FakeInvitations;
  let identity: MemoryIdentityStore;
  let memberships: FakeMemberships;
  let tenants: FakeTenants;
  let grants: FakeGrants;
  let worker: FakeGrantsWorker;
  let customRoles: FakeCustomRoles;
  let accepted: number;

  /** The join over the local store's users rows, or over a user pool's grants. */
  const service = (store: 'local' | 'pool' = 'local') =>
    new JoiningService(
      invitations as unknown as InvitationsStore,
      identity,
      memberships as unknown as MembershipsRepository,
      tenants as unknown as TenantStatusReader,
      store === 'local'
        ? new LocalMembershipBackend(identity)
        : new PoolMembershipBackend(
            identity,
            grants as unknown as MembershipGrantsRepository,
            worker as unknown as MembershipGrantsWorker,
          ),
      worker as unknown as MembershipGrantsWorker,
      customRoles as unknown as GrantsStore,
      new TestClock(NOW),
      { invitationAccepted: () => accepted++ } as unknown as Metrics,
    );
  const caller = (overrides: Partial<Caller> = {}) =>
    ({ id: 'u-1', email: EMAIL, emailVerified: true, ...overrides }) as Caller;

  beforeEach(() => {
    invitations = new FakeInvitations();
    identity = new MemoryIdentityStore();
    memberships = new FakeMemberships();
    tenants = new FakeTenants();
    grants = new FakeGrants();
    worker = new FakeGrantsWorker();
    customRoles = new FakeCustomRoles();
    accepted = 0;
  });

  describe('join by invitation', () => {
    it('rule 1: no session is 401, nothing written', async () => {
      invitations.add();
      expect((await apiFailure(service().join(undefined, TOKEN))).status).toBe(401);
      expect(memberships.attempted).toEqual([]);
    });

    it.each([
      ['an empty token', () => ''],
      ['an unknown token', () => 'no-such-invitation'],
      ['a revoked invitation', () => invitations.add({ status: 'revoked' }).id],
    ])('rule 2: %s is 404 INVALID', async (_, token) => {
      expect(await apiFailure(service().join(caller(), token()))).toEqual({ status: 404, body: refused('INVALID') });
      expect(memberships.attempted).toEqual([]);
    });

    it('rule 2: an accepted invitation is 400 ALREADY_USED, even past its expiry', async () => {
      invitations.add({ status: 'accepted', expiresAt: new Date(NOW.getTime() - DAY) });
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({
        status: 400,
        body: refused('ALREADY_USED'),
      });
    });

    it('rule 2: an invitation past expiresAt is 400 EXPIRED; at expiresAt it still joins', async () => {
      invitations.add({ expiresAt: new Date(NOW.getTime() - 1) });
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({ status: 400, body: refused('EXPIRED') });
      invitations.add({ expiresAt: NOW });
      expect(await service().join(caller(), TOKEN)).toMatchObject({ success: true });
    });

    it('a suspended organisation’s invitation is 403 ORGANISATION_SUSPENDED; a deleted one’s is 404 INVALID', async () => {
      invitations.add();
      tenants.statuses.set(TENANT, 'suspended');
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({
        status: 403,
        body: refused('ORGANISATION_SUSPENDED'),
      });
      tenants.statuses.set(TENANT, 'deleted');
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({ status: 404, body: refused('INVALID') });
      expect(memberships.attempted).toEqual([]);
    });

    it('rule 3: a session with another address is 403 EMAIL_MISMATCH; the address’s case does not matter', async () => {
      invitations.add();
      expect(await apiFailure(service().join(caller({ email: 'someone@example.com' }), TOKEN))).toEqual({
        status: 403,
        body: refused('EMAIL_MISMATCH'),
      });
      expect(await service().join(caller({ email: 'Invitee@Example.com' }), TOKEN)).toMatchObject({ success: true });
    });

    it('rule 4: an address not verified is 403 EMAIL_NOT_VERIFIED, as the store judges the claim; a local issuer may leave it out', async () => {
      invitations.add();
      const unverified = { status: 403, body: refused('EMAIL_NOT_VERIFIED') };
      expect(await apiFailure(service().join(caller({ emailVerified: false }), TOKEN))).toEqual(unverified);
      // A user pool's sessions always carry the claim: there one without it is unverified.
      const judge = jest.spyOn(identity, 'claimDeniesVerification').mockReturnValueOnce(true);
      expect(await apiFailure(service('pool').join(caller({ emailVerified: undefined }), TOKEN))).toEqual(unverified);
      expect(judge).toHaveBeenLastCalledWith(undefined);
      expect(await service().join(caller({ emailVerified: undefined }), TOKEN)).toMatchObject({ success: true });
    });

    it('rule 5: a member of another organisation is 409 MEMBER_OF_ANOTHER_ORGANISATION', async () => {
      invitations.add();
      identity.add({ id: 'u-1', email: EMAIL, userType: ORG_USER_TYPE, tenantId: OTHER_TENANT, role: 'member' });
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({
        status: 409,
        body: refused('MEMBER_OF_ANOTHER_ORGANISATION'),
      });
      expect(memberships.attempted).toEqual([]);
    });

    it('rule 5: an address another account holds is 409 EMAIL_IN_USE', async () => {
      invitations.add();
      identity.add({ id: 'u-other', email: EMAIL });
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({ status: 409, body: refused('EMAIL_IN_USE') });
      expect(memberships.attempted).toEqual([]);
    });

    it('rule 6: joins with the invitation’s role and its custom roles as defined now; counted as accepted', async () => {
      const invitation = invitations.add({ role: 'admin' });
      customRoles.defined.set(TENANT, [role('auditor')]);
      customRoles.carried.set(TOKEN, ['auditor', 'deleted-since']);
      expect(await service().join(caller(), TOKEN)).toEqual({
        success: true,
        tenantId: TENANT,
        role: 'admin',
        userId: 'u-1',
      });
      expect(memberships.written).toHaveLength(1);
      expect(memberships.written[0]).toMatchObject({
        tenantId: TENANT,
        invitation,
        invitee: { id: 'u-1', email: EMAIL },
        role: 'admin',
        customRoles: [role('auditor')],
        activatesTenant: false,
        now: NOW,
        membership: { store: 'local', stored: null },
      });
      expect(accepted).toBe(1);
    });

    it('rule 6: a member of this organisation keeps the role they hold, and gets no custom roles from it', async () => {
      invitations.add({ role: 'admin' });
      customRoles.defined.set(TENANT, [role('auditor')]);
      customRoles.carried.set(TOKEN, ['auditor']);
      identity.add({ id: 'u-1', email: EMAIL, userType: ORG_USER_TYPE, tenantId: TENANT, role: 'owner' });
      expect(await service().join(caller(), TOKEN)).toMatchObject({ role: 'owner' });
      expect(memberships.written[0]).toMatchObject({ role: 'owner', customRoles: [] });
    });

    it.each([
      ['the owner of a pending_owner organisation activates it', 'owner', 'pending_owner', true],
      ['an admin of a pending_owner organisation does not', 'admin', 'pending_owner', false],
      ['the owner of an active organisation does not', 'owner', 'active', false],
    ] as const)('%s', async (_, invitedRole, status, activates) => {
      invitations.add({ role: invitedRole });
      tenants.statuses.set(TENANT, status);
      await service().join(caller(), TOKEN);
      expect(memberships.written[0].activatesTenant).toBe(activates);
    });

    it('a join that lost to a parallel change is judged again: the loser gets its refusal', async () => {
      invitations.add();
      memberships.outcomes = [
        {
          commits: false,
          before: () => identity.add({ id: 'u-1', email: EMAIL, userType: ORG_USER_TYPE, tenantId: OTHER_TENANT }),
        },
      ];
      expect(await apiFailure(service().join(caller(), TOKEN))).toEqual({
        status: 409,
        body: refused('MEMBER_OF_ANOTHER_ORGANISATION'),
      });
      expect(memberships.written).toEqual([]);
      expect(accepted).toBe(0);
    });

    it('an insert that failed (a parallel join made the row first) is judged again and may then join', async () => {
      invitations.add();
      memberships.outcomes = [{ commits: new Error('unique violation') }];
      expect(await service().join(caller(), TOKEN)).toMatchObject({ success: true });
      expect(memberships.attempted).toHaveLength(2);
      expect(memberships.written).toHaveLength(1);
    });

    it(`gives up after ${JOIN_ATTEMPTS} lost attempts with the last failure`, async () => {
      invitations.add();
      const last = new Error('the last one');
      memberships.outcomes = [{ commits: false }, { commits: false }, { commits: last }];
      await expect(service().join(caller(), TOKEN)).rejects.toBe(last);
      expect(memberships.attempted).toHaveLength(JOIN_ATTEMPTS);
      expect(accepted).toBe(0);
    });

    describe('on the user pool', () => {
      beforeEach(() => identity.add({ id: 'u-1', email: EMAIL }));

      it('a grant on its way to another organisation counts as a membership: 409 MEMBER_OF_ANOTHER_ORGANISATION', async () => {
        invitations.add();
        grants.pending.set('u-1', { tenantId: OTHER_TENANT, role: 'member' });
        expect(await apiFailure(service('pool').join(caller(), TOKEN))).toEqual({
          status: 409,
          body: refused('MEMBER_OF_ANOTHER_ORGANISATION'),
        });
      });

      it('an account gone from the pool is 401', async () => {
        invitations.add();
        identity.users.delete('u-1');
        expect((await apiFailure(service('pool').join(caller(), TOKEN))).status).toBe(401);
        expect(memberships.attempted).toEqual([]);
      });

      it('the membership is a grant; while the pool has yet to take it the answer is pending', async () => {
        invitations.add({ role: 'member' });
        worker.poolTakes = false;
        expect(await service('pool').join(caller(), TOKEN)).toEqual({
          success: true,
          tenantId: TENANT,
          role: 'member',
          userId: 'u-1',
          pending: true,
        });
        expect(worker.sent).toMatchObject([{ userId: 'u-1', tenantId: TENANT, role: 'member' }]);
      });

      it('a member the pool has already, in this role: no new grant, and joined at once', async () => {
        invitations.add({ role: 'member' });
        identity.add({ id: 'u-1', email: EMAIL, userType: ORG_USER_TYPE, tenantId: TENANT, role: 'member' });
        expect(await service('pool').join(caller(), TOKEN)).not.toHaveProperty('pending');
        expect(worker.sent).toEqual([]);
        expect(memberships.written[0].membership).toMatchObject({ store: 'pool', grant: null });
      });
    });
  });

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
      expect(memberships.written[0]).toMatchObject({
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
      customRoles.defined.set(TENANT, [role('auditor'), role('billing')]);
      await service().joinWithoutInvitation(member, TENANT, 'member', alongside, {
        customRoles: ['auditor', 'deleted-since'],
      });
      expect(memberships.written[0].customRoles).toEqual([role('auditor')]);
    });

    it('a member of another organisation: not joined, that organisation named; nothing written', async () => {
      identity.add({ ...member, userType: ORG_USER_TYPE, tenantId: OTHER_TENANT, role: 'member' });
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: false,
        memberOf: OTHER_TENANT,
      });
      expect(memberships.attempted).toEqual([]);
    });

    it('a member of this organisation already: not joined, this organisation named', async () => {
      identity.add({ ...member, userType: ORG_USER_TYPE, tenantId: TENANT, role: 'admin' });
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: false,
        memberOf: TENANT,
      });
    });

    it('an address another account holds: not joined, e-mail in use', async () => {
      identity.add({ id: 'u-other', email: EMAIL });
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: false,
        memberOf: '',
        emailInUse: true,
      });
      expect(memberships.attempted).toEqual([]);
    });

    it('an account gone from the pool: account deleted when it need not exist there, else 401', async () => {
      expect(
        await service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside, { mustExistInPool: false }),
      ).toEqual({ joined: false, memberOf: '', accountDeleted: true });
      expect(
        (await apiFailure(service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside))).status,
      ).toBe(401);
      expect(memberships.attempted).toEqual([]);
    });

    it('a join that lost to a parallel one is judged again: then a member of the organisation that won', async () => {
      identity.add(member);
      memberships.outcomes = [
        { commits: false, before: () => grants.pending.set(member.id, { tenantId: OTHER_TENANT, role: 'member' }) },
      ];
      expect(await service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside)).toEqual({
        joined: false,
        memberOf: OTHER_TENANT,
      });
      expect(memberships.written).toEqual([]);
    });

    it(`throws the last failure after ${JOIN_ATTEMPTS} lost attempts`, async () => {
      const last = new Error('the last one');
      memberships.outcomes = [{ commits: false }, { commits: new Error('first') }, { commits: last }];
      await expect(service().joinWithoutInvitation(member, TENANT, 'member', alongside)).rejects.toBe(last);
      expect(memberships.attempted).toHaveLength(JOIN_ATTEMPTS);
    });

    it('on the pool: joined, not yet in the pool while the grant is on its way', async () => {
      identity.add(member);
      worker.poolTakes = false;
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
      const stored = identity.add({ ...member, userType: ORG_USER_TYPE, tenantId: TENANT, role: 'member' });
      expect(await service().joinWithoutInvitation(member, TENANT, 'admin', alongside, { setsRole: true })).toEqual({
        joined: true,
        inPool: true,
      });
      expect(memberships.written[0]).toMatchObject({ role: 'admin', membership: { store: 'local', stored } });
    });

    it('setsRole: a member of another organisation is still not joined', async () => {
      identity.add({ ...member, userType: ORG_USER_TYPE, tenantId: OTHER_TENANT, role: 'member' });
      expect(await service().joinWithoutInvitation(member, TENANT, 'admin', alongside, { setsRole: true })).toEqual({
        joined: false,
        memberOf: OTHER_TENANT,
      });
    });

    it('once: a lost race is answered changed after one attempt; a failure is thrown at once', async () => {
      memberships.outcomes = [{ commits: false }];
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside, { once: true })).toEqual({
        joined: false,
        memberOf: '',
        changed: true,
      });
      const failure = new Error('a unique index');
      memberships.outcomes = [{ commits: failure }];
      await expect(service().joinWithoutInvitation(member, TENANT, 'member', alongside, { once: true })).rejects.toBe(
        failure,
      );
      expect(memberships.attempted).toHaveLength(2);
    });

    it('a new account on the local store: the users row is made by the join', async () => {
      expect(await service().joinWithoutInvitation(member, TENANT, 'member', alongside, { account: 'new' })).toEqual({
        joined: true,
        inPool: true,
      });
      expect(memberships.written[0].membership).toEqual({ store: 'local', stored: null });
    });

    it('a new account on the pool: made once the rows are in, before the grant is sent', async () => {
      const order: string[] = [];
      identity.createAccount = async (id, email) => {
        order.push(`account after ${memberships.written.length} join(s), ${worker.sent.length} grant(s) sent`);
        identity.add({ id, email });
        return id;
      };
      expect(
        await service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside, { account: 'new' }),
      ).toEqual({ joined: true, inPool: true });
      expect(order).toEqual(['account after 1 join(s), 0 grant(s) sent']);
      expect(worker.sent).toMatchObject([{ userId: member.id, tenantId: TENANT, role: 'member' }]);
      expect(memberships.takenBack).toEqual([]);
    });

    it('a new account the pool refuses: the rows are taken back, no grant is sent, the refusal thrown', async () => {
      const refused = new Error('UsernameExistsException');
      identity.createAccount = () => Promise.reject(refused);
      await expect(
        service('pool').joinWithoutInvitation(member, TENANT, 'member', alongside, { account: 'new', once: true }),
      ).rejects.toBe(refused);
      expect(memberships.takenBack).toEqual(memberships.written);
      expect(memberships.takenBack).toHaveLength(1);
      expect(worker.sent).toEqual([]);
    });
  });

  describe('organisationOf', () => {
    it('local store: the users row’s organisation as read', async () => {
      expect(await service().organisationOf({ id: 'u-1', tenantId: TENANT })).toBe(TENANT);
    });

    it('user pool: a grant on its way counts first, then the pool, then none', async () => {
      identity.add({ id: 'u-1', userType: ORG_USER_TYPE, tenantId: TENANT, role: 'member' });
      grants.pending.set('u-1', { tenantId: OTHER_TENANT, role: 'member' });
      expect(await service('pool').organisationOf({ id: 'u-1', tenantId: null })).toBe(OTHER_TENANT);
      grants.pending.clear();
      expect(await service('pool').organisationOf({ id: 'u-1', tenantId: null })).toBe(TENANT);
      expect(await service('pool').organisationOf({ id: 'u-unknown', tenantId: TENANT })).toBeNull();
    });
  });
});

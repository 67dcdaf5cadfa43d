import { Logger } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { apiFailure } from '../../test/support/api-failure';
import {
  auditRecorderOn,
  grantsStoreOn,
  membershipRemovalsOn,
  invitationsStoreOn,
  memberPermissionsOn,
  memoryDataSource,
} from '../../test/support/memory-data-source';
import { MemoryIdentityStore } from '../../test/support/memory-identity-store';
import { TestClock } from '../../test/support/test-clock';
import { withoutTable } from '../../test/support/without-table';
import { OrgCaller } from '../auth/caller';
import { IdGenerator } from '../common/id-generator';
import { parseConfig } from '../config/app-config';
import {
  InvitationEmailOutboxEntity,
  InvitationEntity,
  MembershipRemovalEntity,
  TenantEntity,
} from '../database/entities';
import { InvitationIssuer } from '../invitations/invitation-issuer';
import { InvitationOutboxWorker } from '../mail/outbox/invitation-outbox.worker';
import { Metrics } from '../metrics/metrics';
import { ChangeRoleDto } from './dto/change-role.dto';
import { InviteDto } from '../invitations/dto/invite.dto';
import { OrgMembersController } from './org-members.controller';
import { OrgMembersService } from './org-members.service';

/** The worker's one method the service calls; delivery itself is tested in invitation-outbox.worker.spec.ts. */
class FakeOutboxWorker {
  kicks = 0;
  kick() {
    this.kicks++;
  }
}

class FixedIds extends IdGenerator {
  constructor(private readonly id: string) {
    super();
  }
  override uuid() {
    return this.id;
  }
}

const NOW = new Date('2026-03-01T10:00:00.000Z');
const TOKEN = '6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11';
const TENANT = 'tenant-1';

const caller = (overrides: Partial<OrgCaller> = {}): OrgCaller => ({
  id: 'owner-1',
  email: 'owner@acme.example',
  userType: 'org',
  tenantId: TENANT,
  role: 'owner',
  ...overrides,
});

const dto = (email: string, role = 'member'): InviteDto => Object.assign(new InviteDto(), { email, role });

describe(OrgMembersService.name, () => {
  // The repositories are real, on in-memory SQLite with the real migrations.
  let dataSource: DataSource;
  let invitations: Repository<InvitationEntity>;
  let outboxRows: Repository<InvitationEmailOutboxEntity>;
  let tenants: Repository<TenantEntity>;
  let identity: MemoryIdentityStore;
  let worker: FakeOutboxWorker;
  let errors: jest.SpyInstance;
  const metrics = new Metrics();

  const service = (env: Record<string, string> = {}) =>
    new OrgMembersService(
      identity,
      new InvitationIssuer(
        invitationsStoreOn(dataSource, new TestClock(NOW)),
        worker as unknown as InvitationOutboxWorker,
        new TestClock(NOW),
        new FixedIds(TOKEN),
        parseConfig(env),
        metrics,
      ),
      audit(),
      grantsStoreOn(dataSource),
      memberPermissionsOn(dataSource),
      membershipRemovalsOn(dataSource),
      new TestClock(NOW),
    );
  const audit = () => auditRecorderOn(dataSource, new TestClock(NOW));
  /** The e-mails recorded for sending. */
  const queued = async () => (await outboxRows.find()).map((row) => JSON.parse(row.payload));
  const expectNothingStored = async () => {
    expect(await invitations.count()).toBe(0);
    expect(await outboxRows.count()).toBe(0);
  };

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    invitations = dataSource.getRepository(InvitationEntity);
    outboxRows = dataSource.getRepository(InvitationEmailOutboxEntity);
    tenants = dataSource.getRepository(TenantEntity);
  });
  afterAll(() => dataSource.destroy());

  beforeEach(async () => {
    await invitations.clear();
    await outboxRows.clear();
    await tenants.clear();
    await tenants.insert({ id: TENANT, name: 'Acme', type: 'business', status: 'pending_owner', createdAt: NOW });
    identity = new MemoryIdentityStore();
    worker = new FakeOutboxWorker();
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  describe('invite (spec 4.9 rules 8–12)', () => {
    const origin = 'http://portal.example.com';
    /** Invites a@example.com and gives the refusal, as the invite route answers it. */
    const failedInvite = () =>
      apiFailure(service().invite(caller(), dto('a@example.com'), origin), OrgMembersController.prototype.inviteMember);

    it('rules 9 and 11: stores a pending invitation and answers with the e-mail as submitted', async () => {
      const result = await service().invite(caller(), dto('New.Person@Example.COM', 'admin'), origin);

      expect(result).toEqual({
        success: true,
        invitation: {
          id: TOKEN,
          email: 'New.Person@Example.COM',
          role: 'admin',
          status: 'pending',
          expiresAt: '2026-03-08T10:00:00.000Z',
        },
      });
      expect(await invitations.find()).toEqual([
        {
          id: TOKEN,
          tenantId: TENANT,
          email: 'new.person@example.com',
          role: 'admin',
          status: 'pending',
          expiresAt: new Date('2026-03-08T10:00:00.000Z'),
          invitedBy: 'owner-1',
          createdAt: NOW,
        },
      ]);
    });

    it('rule 10: records the e-mail to the stored address, with tenant name, inviter, role, expiry, link; wakes the worker', async () => {
      await service().invite(caller(), dto('New.Person@Example.COM'), origin);
      expect(await queued()).toEqual([
        {
          to: 'new.person@example.com',
          tenantId: TENANT,
          tenantName: 'Acme',
          inviterEmail: 'owner@acme.example',
          role: 'member',
          expiresAt: '2026-03-08T10:00:00.000Z',
          link: `http://portal.example.com/invitations/${TOKEN}`,
        },
      ]);
      expect(await outboxRows.find()).toEqual([
        expect.objectContaining({
          invitationId: TOKEN,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: NOW,
          createdAt: NOW,
          sentAt: null,
        }),
      ]);
      expect(worker.kicks).toBe(1);
    });

    it('rule 10: PUBLIC_BASE_URL is the link base whatever the request origin is', async () => {
      await service({ PUBLIC_BASE_URL: 'https://portal.example.com' }).invite(
        caller(),
        dto('a@example.com'),
        'http://evil.example',
      );
      expect((await queued())[0].link).toBe(`https://portal.example.com/invitations/${TOKEN}`);
    });

    it('rule 10: PUBLIC_BASE_URL replaces the request headers in the link', async () => {
      await service({ PUBLIC_BASE_URL: 'https://app.example.org/portal/' }).invite(
        caller(),
        dto('a@example.com'),
        origin,
      );
      expect((await queued())[0].link).toBe(`https://app.example.org/portal/invitations/${TOKEN}`);
    });

    it.each([
      ['has no name', null],
      ['has an empty name', ''],
    ])('rule 10: the tenant name is "Organisation" when the tenant %s', async (_, name) => {
      await tenants.update({ id: TENANT }, { name });
      await service().invite(caller(), dto('a@example.com'), origin);
      expect((await queued())[0].tenantName).toBe('Organisation');
    });

    it('rule 10: the tenant name is "Organisation" when the tenant row is absent', async () => {
      await service().invite(caller({ tenantId: 'no-such-tenant' }), dto('a@example.com'), origin);
      expect((await queued())[0].tenantName).toBe('Organisation');
    });

    it('rule 8: an e-mail already in the tenant, in any case, is 400 with nothing stored or sent', async () => {
      identity.add({ id: 'member-1', email: 'taken@example.com', tenantId: TENANT, role: 'member' });
      expect(await apiFailure(service().invite(caller(), dto('TAKEN@example.com'), origin))).toEqual({
        status: 400,
        body: { error: 'User is already a member of this organisation' },
      });
      await expectNothingStored();
      expect(worker.kicks).toBe(0);
    });

    it('rule 8: the same e-mail in another tenant is no obstacle', async () => {
      identity.add({ id: 'elsewhere', email: 'taken@example.com', tenantId: 'tenant-2', role: 'owner' });
      expect((await service().invite(caller(), dto('taken@example.com'), origin)).success).toBe(true);
    });

    it('rule 12: an identity store failure is 500 "Failed to create invitation", nothing stored or sent', async () => {
      identity.failure = new Error('store down');
      expect(await failedInvite()).toEqual({
        status: 500,
        body: { error: 'Failed to create invitation' },
      });
      await expectNothingStored();
    });

    it.each([
      ['invitation insert', 'tenant_invitations'],
      ['outbox insert (one transaction with the invitation)', 'invitation_email_outbox'],
    ])('rule 9: a failed %s is 500 "Failed to create invitation" and stores and sends nothing', async (_, table) => {
      await withoutTable(dataSource, table, async () => {
        expect(await failedInvite()).toEqual({
          status: 500,
          body: { error: 'Failed to create invitation' },
        });
      });
      await expectNothingStored();
      expect(worker.kicks).toBe(0);
      expect(errors).toHaveBeenCalledWith(
        expect.stringMatching(new RegExp(`^Failed to create invitation: .*${table}`)),
      );
    });
  });

  describe('removeMember (spec 4.10 rules 4–9)', () => {
    it("rule 8: clears the member's tenant and role and answers {success:true}", async () => {
      identity.add({ id: 'member-1', tenantId: TENANT, role: 'member' });
      expect(await service().removeMember(caller(), 'member-1')).toEqual({ success: true });
      expect(identity.removed).toEqual(['member-1']);
      expect(identity.users.get('member-1')).toMatchObject({ tenantId: null, role: null });
      expect(await dataSource.getRepository(MembershipRemovalEntity).find()).toEqual([
        { tenantId: TENANT, userId: 'member-1', emailKey: expect.any(String), reason: 'removed', removedAt: NOW },
      ]);
    });

    it('rule 4: removing yourself is 400 before any look-up', async () => {
      identity.add({ id: 'owner-1', tenantId: TENANT, role: 'owner' });
      expect(await apiFailure(service().removeMember(caller(), 'owner-1'))).toEqual({
        status: 400,
        body: { error: 'Cannot remove yourself' },
      });
      expect(identity.lookups).toEqual([]);
      expect(identity.removed).toEqual([]);
    });

    it('rule 4: a store that matches ids loosely still never lets you remove yourself', async () => {
      identity.add({ id: 'owner-1', tenantId: TENANT, role: 'owner' });
      identity.findById = async (id: string) => identity.users.get(id.toLowerCase()) ?? null;
      expect(await apiFailure(service().removeMember(caller(), 'OWNER-1'))).toEqual({
        status: 400,
        body: { error: 'Cannot remove yourself' },
      });
      expect(identity.removed).toEqual([]);
    });

    it('rule 5: an unknown user is 404', async () => {
      expect(await apiFailure(service().removeMember(caller(), 'ghost'))).toEqual({
        status: 404,
        body: { error: 'User not found' },
      });
    });

    it.each([
      ['another tenant', 'tenant-2'],
      ['no tenant', null],
    ])('rule 6: a user of %s is 403', async (_, tenantId) => {
      identity.add({ id: 'outsider', tenantId, role: 'member' });
      expect(await apiFailure(service().removeMember(caller(), 'outsider'))).toEqual({
        status: 403,
        body: { error: 'User is not in your organisation' },
      });
      expect(identity.removed).toEqual([]);
    });

    it('rule 7: an admin cannot remove an owner', async () => {
      identity.add({ id: 'owner-2', tenantId: TENANT, role: 'owner' });
      expect(await apiFailure(service().removeMember(caller({ role: 'admin' }), 'owner-2'))).toEqual({
        status: 403,
        body: { error: 'Admins cannot remove owners' },
      });
      expect(identity.removed).toEqual([]);
    });

    it.each([
      ['admin', 'admin'],
      ['admin', 'member'],
      ['owner', 'owner'],
      ['owner', 'admin'],
    ])('rule 8: a caller with role %s may remove a %s', async (callerRole, targetRole) => {
      identity.add({ id: 'target', tenantId: TENANT, role: targetRole });
      expect(await service().removeMember(caller({ role: callerRole }), 'target')).toEqual({ success: true });
    });

    it('rule 9: a store failure is 500 "Failed to remove user"', async () => {
      identity.add({ id: 'member-1', tenantId: TENANT, role: 'member' });
      identity.failure = new Error('store down');
      expect(
        await apiFailure(service().removeMember(caller(), 'member-1'), OrgMembersController.prototype.removeMember),
      ).toEqual({ status: 500, body: { error: 'Failed to remove user' } });
    });
  });

  describe('listMembers', () => {
    it('asks the store for one row more than the page and turns it into nextCursor', async () => {
      for (const id of ['c', 'a', 'b'])
        identity.add({ id, email: `${id}@acme.example`, tenantId: TENANT, role: 'member' });
      identity.add({ id: 'elsewhere', tenantId: 'tenant-2', role: 'owner' });
      const first = await service().listMembers(caller(), { limit: '2' });
      expect(first).toEqual({
        members: [
          { id: 'a', email: 'a@acme.example', role: 'member' },
          { id: 'b', email: 'b@acme.example', role: 'member' },
        ],
        nextCursor: expect.any(String),
      });
      expect(await service().listMembers(caller(), { limit: '2', cursor: first.nextCursor })).toEqual({
        members: [{ id: 'c', email: 'c@acme.example', role: 'member' }],
      });
    });
  });

  describe('changeRole', () => {
    const role = (value: string) => Object.assign(new ChangeRoleDto(), { role: value });

    it('sets the role in the store and answers the member', async () => {
      identity.add({ id: 'member-1', email: 'm@acme.example', tenantId: TENANT, role: 'member' });
      expect(await service().changeRole(caller(), 'member-1', role('admin'))).toEqual({
        success: true,
        member: { id: 'member-1', email: 'm@acme.example', role: 'admin' },
      });
      expect(identity.roleChanges).toEqual([['member-1', 'admin']]);
    });

    it('your own id is 400 before any look-up', async () => {
      expect(await apiFailure(service().changeRole(caller(), 'owner-1', role('member')))).toEqual({
        status: 400,
        body: { error: 'Cannot change your own role' },
      });
      expect(identity.lookups).toEqual([]);
    });

    it('a store that matches ids loosely still never lets you change your own role', async () => {
      identity.add({ id: 'owner-1', tenantId: TENANT, role: 'owner' });
      identity.findById = async (id: string) => identity.users.get(id.toLowerCase()) ?? null;
      expect(await apiFailure(service().changeRole(caller(), 'OWNER-1', role('member')))).toEqual({
        status: 400,
        body: { error: 'Cannot change your own role' },
      });
      expect(identity.roleChanges).toEqual([]);
    });

    it.each([
      ['admin', 'owner', 'member', 'Admins cannot change owners'],
      ['admin', 'member', 'owner', 'Only owners can grant the owner role'],
    ])(
      'a caller with role %s changing a %s to %s is 403 "%s", nothing changed',
      async (callerRole, from, to, error) => {
        identity.add({ id: 'target', tenantId: TENANT, role: from });
        expect(await apiFailure(service().changeRole(caller({ role: callerRole }), 'target', role(to)))).toEqual({
          status: 403,
          body: { error },
        });
        expect(identity.roleChanges).toEqual([]);
      },
    );

    it('a store failure is 500 "Failed to update member"', async () => {
      identity.add({ id: 'target', tenantId: TENANT, role: 'member' });
      identity.failure = new Error('store down');
      expect(
        await apiFailure(
          service().changeRole(caller(), 'target', role('admin')),
          OrgMembersController.prototype.changeMemberRole,
        ),
      ).toEqual({
        status: 500,
        body: { error: 'Failed to update member' },
      });
    });
  });
});

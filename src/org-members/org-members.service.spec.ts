import { Logger } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { Caller } from '../auth/caller';
import { Clock } from '../common/clock';
import { sameEmail } from '../common/email-comparison';
import { IdGenerator } from '../common/id-generator';
import { parseConfig } from '../config/app-config';
import { dataSourceOptions } from '../database/data-source-options';
import { InvitationEmailOutboxEntity, InvitationEntity, TenantEntity } from '../database/entities';
import { IdentityStore, IdentityUser, UserPage } from '../identity/identity-store';
import { InvitationOutbox } from '../mail/outbox/invitation-outbox';
import { InvitationOutboxWorker } from '../mail/outbox/invitation-outbox.worker';
import { Metrics } from '../metrics/metrics';
import { InviteDto } from './dto/invite.dto';
import { OrgMembersService } from './org-members.service';
import { apiFailure } from '../../test/support/api-failure';

/** A hand-written in-memory IdentityStore with the look-ups the service uses. */
class FakeIdentityStore extends IdentityStore {
  users = new Map<string, IdentityUser>();
  removed: string[] = [];
  lookups: string[] = [];
  failure?: Error;

  add(user: Partial<IdentityUser> & { id: string }): IdentityUser {
    const full = { email: `${user.id}@example.com`, platformRole: null, userType: 'org', tenantId: null, role: null, ...user };
    this.users.set(full.id, full);
    return full;
  }
  async findById(id: string) {
    this.lookups.push(id);
    if (this.failure) throw this.failure;
    return this.users.get(id) ?? null;
  }
  async findByEmail(): Promise<IdentityUser[]> {
    throw new Error('not used');
  }
  async findTenantMemberByEmail(tenantId: string, email: string) {
    if (this.failure) throw this.failure;
    return [...this.users.values()].find((u) => u.tenantId === tenantId && sameEmail(u.email, email)) ?? null;
  }
  async listTenantUsers(): Promise<IdentityUser[]> {
    throw new Error('not used');
  }
  async listSuperAdmins(): Promise<UserPage> {
    throw new Error('not used');
  }
  async grantSuperAdmin(): Promise<void> {
    throw new Error('not used');
  }
  async deleteUser(): Promise<void> {
    throw new Error('not used');
  }
  async removeFromTenant(id: string) {
    if (this.failure) throw this.failure;
    this.removed.push(id);
    Object.assign(this.users.get(id)!, { tenantId: null, role: null });
  }
  async ping() {}
}

/** The worker's one method the service calls; delivery itself is tested in invitation-outbox.worker.spec.ts. */
class FakeOutboxWorker {
  kicks = 0;
  kick() {
    this.kicks++;
  }
}

class FixedClock extends Clock {
  constructor(private readonly at: Date) {
    super();
  }
  override now() {
    return new Date(this.at);
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


const caller = (overrides: Partial<Caller> = {}): Caller => ({
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
  let identity: FakeIdentityStore;
  let worker: FakeOutboxWorker;
  let errors: jest.SpyInstance;
  const metrics = new Metrics();

  const service = (env: Record<string, string> = {}) =>
    new OrgMembersService(
      identity,
      tenants,
      new InvitationOutbox(dataSource, new IdGenerator()),
      worker as unknown as InvitationOutboxWorker,
      new FixedClock(NOW),
      new FixedIds(TOKEN),
      parseConfig(env),
      metrics,
    );
  /** The e-mails recorded for sending. */
  const queued = async () => (await outboxRows.find()).map((row) => JSON.parse(row.payload));
  /** Runs `work` while `table` is renamed away, so that writes to it fail. */
  const withoutTable = async (table: string, work: () => Promise<void>) => {
    await dataSource.query(`ALTER TABLE ${table} RENAME TO ${table}_away`);
    try {
      await work();
    } finally {
      await dataSource.query(`ALTER TABLE ${table}_away RENAME TO ${table}`);
    }
  };

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions({ database: { type: 'sqlite', database: ':memory:' }, migrationsRun: true })).initialize();
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
    identity = new FakeIdentityStore();
    worker = new FakeOutboxWorker();
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  describe('invite (spec 4.9 rules 8–12)', () => {
    const headers = { host: 'portal.example.com', 'x-forwarded-proto': 'http' };

    it('rules 9 and 11: stores a pending invitation and answers with the e-mail as submitted', async () => {
      const result = await service().invite(caller(), dto('New.Person@Example.COM', 'admin'), headers);

      expect(result).toEqual({
        success: true,
        invitation: { id: TOKEN, email: 'New.Person@Example.COM', role: 'admin', status: 'pending', expiresAt: '2026-03-08T10:00:00.000Z' },
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

    it('rule 10: records the e-mail to the stored address, with the tenant name, inviter, role, expiry and link, and wakes the worker', async () => {
      await service().invite(caller(), dto('New.Person@Example.COM'), headers);
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
        expect.objectContaining({ invitationId: TOKEN, status: 'pending', attempts: 0, nextAttemptAt: NOW, createdAt: NOW, sentAt: null }),
      ]);
      expect(worker.kicks).toBe(1);
    });

    it('rule 10: PUBLIC_BASE_URL replaces the request headers in the link', async () => {
      await service({ PUBLIC_BASE_URL: 'https://app.example.org/portal/' }).invite(caller(), dto('a@example.com'), headers);
      expect((await queued())[0].link).toBe(`https://app.example.org/portal/invitations/${TOKEN}`);
    });

    it.each([
      ['has no name', null],
      ['has an empty name', ''],
    ])('rule 10: the tenant name is "Organisation" when the tenant %s', async (_, name) => {
      await tenants.update({ id: TENANT }, { name });
      await service().invite(caller(), dto('a@example.com'), headers);
      expect((await queued())[0].tenantName).toBe('Organisation');
    });

    it('rule 10: the tenant name is "Organisation" when the tenant row is absent', async () => {
      await service().invite(caller({ tenantId: 'no-such-tenant' }), dto('a@example.com'), headers);
      expect((await queued())[0].tenantName).toBe('Organisation');
    });

    it('rule 8: an e-mail already in the tenant, in any case, is 400 with nothing stored or sent', async () => {
      identity.add({ id: 'member-1', email: 'taken@example.com', tenantId: TENANT, role: 'member' });
      expect(await apiFailure(service().invite(caller(), dto('TAKEN@example.com'), headers))).toEqual({
        status: 400,
        body: { error: 'User is already a member of this organisation' },
      });
      expect(await invitations.count()).toBe(0);
      expect(await outboxRows.count()).toBe(0);
      expect(worker.kicks).toBe(0);
    });

    it('rule 8: the same e-mail in another tenant is no obstacle', async () => {
      identity.add({ id: 'elsewhere', email: 'taken@example.com', tenantId: 'tenant-2', role: 'owner' });
      expect((await service().invite(caller(), dto('taken@example.com'), headers)).success).toBe(true);
    });

    it('rule 12: an identity store failure is 500 "Failed to create invitation", nothing stored or sent', async () => {
      identity.failure = new Error('store down');
      expect(await apiFailure(service().invite(caller(), dto('a@example.com'), headers))).toEqual({
        status: 500,
        body: { error: 'Failed to create invitation' },
      });
      expect(await invitations.count()).toBe(0);
      expect(await outboxRows.count()).toBe(0);
    });

    it('rule 9: a failed invitation insert is 500 "Failed to create invitation" and records no e-mail', async () => {
      await withoutTable('tenant_invitations', async () => {
        expect(await apiFailure(service().invite(caller(), dto('a@example.com'), headers))).toEqual({
          status: 500,
          body: { error: 'Failed to create invitation' },
        });
      });
      expect(await invitations.count()).toBe(0);
      expect(await outboxRows.count()).toBe(0);
      expect(worker.kicks).toBe(0);
    });

    it('rule 9: the invitation and its e-mail are one transaction: a failed outbox insert leaves no invitation', async () => {
      await withoutTable('invitation_email_outbox', async () => {
        expect(await apiFailure(service().invite(caller(), dto('a@example.com'), headers))).toEqual({
          status: 500,
          body: { error: 'Failed to create invitation' },
        });
      });
      expect(await invitations.count()).toBe(0);
      expect(await outboxRows.count()).toBe(0);
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^Failed to create invitation: .*invitation_email_outbox/));
    });
  });

  describe('removeMember (spec 4.10 rules 4–9)', () => {
    it('rule 8: clears the member\'s tenant and role and answers {success:true}', async () => {
      identity.add({ id: 'member-1', tenantId: TENANT, role: 'member' });
      expect(await service().removeMember(caller(), 'member-1')).toEqual({ success: true });
      expect(identity.removed).toEqual(['member-1']);
      expect(identity.users.get('member-1')).toMatchObject({ tenantId: null, role: null });
    });

    it('rule 4: removing yourself is 400 before any look-up', async () => {
      identity.add({ id: 'owner-1', tenantId: TENANT, role: 'owner' });
      expect(await apiFailure(service().removeMember(caller(), 'owner-1'))).toEqual({ status: 400, body: { error: 'Cannot remove yourself' } });
      expect(identity.lookups).toEqual([]);
      expect(identity.removed).toEqual([]);
    });

    it('rule 4: a store that matches ids loosely still never lets you remove yourself', async () => {
      identity.add({ id: 'owner-1', tenantId: TENANT, role: 'owner' });
      identity.findById = async (id: string) => identity.users.get(id.toLowerCase()) ?? null;
      expect(await apiFailure(service().removeMember(caller(), 'OWNER-1'))).toEqual({ status: 400, body: { error: 'Cannot remove yourself' } });
      expect(identity.removed).toEqual([]);
    });

    it('rule 5: an unknown user is 404', async () => {
      expect(await apiFailure(service().removeMember(caller(), 'ghost'))).toEqual({ status: 404, body: { error: 'User not found' } });
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
      expect(await apiFailure(service().removeMember(caller(), 'member-1'))).toEqual({ status: 500, body: { error: 'Failed to remove user' } });
    });
  });
});

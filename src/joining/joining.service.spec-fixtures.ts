/**
 * What the JoiningService specs share: an invitation, the service's collaborators as fakes
 * (JoiningFakes, fresh for each test), and the service over them.
 */

import { invitationRow } from '../../test/support/invitation-row';
import { MemoryIdentityStore } from '../../test/support/memory-identity-store';
import { TestClock } from '../../test/support/test-clock';
import { Caller } from '../auth/caller';
import { RequiredUpdate } from '../database/atomic-writer';
import { InvitationEntity, MembershipGrantEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { InvitationsStore } from '../invitations/invitations.store';
import { Metrics } from '../metrics/metrics';
import { GrantsStore, RoleDefinition } from '../permissions/grants.store';
import { JoiningService } from './joining.service';
import { LocalMembershipBackend, PoolMembershipBackend } from './membership-backend';
import { MembershipGrantsRepository } from './membership-grants.repository';
import { MembershipGrantsWorker } from './membership-grants.worker';
import { Join, MembershipsRepository } from './memberships.repository';

export const NOW = new Date('2026-03-01T12:00:00.000Z');
export const DAY = 24 * 3600 * 1000;
export const TOKEN = 'invitation-1';
export const TENANT = 'tenant-1';
export const OTHER_TENANT = 'tenant-2';
export const EMAIL = 'invitee@example.com';
export const refused = (error: string) => ({ success: false, error });

class FakeInvitations implements Pick<InvitationsStore, 'findById'> {
  readonly rows = new Map<string, InvitationEntity>();
  add(overrides: Partial<InvitationEntity> = {}): InvitationEntity {
    const row = invitationRow(TOKEN, NOW, { tenantId: TENANT, email: EMAIL, ...overrides });
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

export const role = (key: string): RoleDefinition => ({
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

/** The service's collaborators, each a fake; `accepted` counts the accepted invitations. */
export class JoiningFakes {
  readonly invitations = new FakeInvitations();
  readonly identity = new MemoryIdentityStore();
  readonly memberships = new FakeMemberships();
  readonly tenants = new FakeTenants();
  readonly grants = new FakeGrants();
  readonly worker = new FakeGrantsWorker();
  readonly customRoles = new FakeCustomRoles();
  accepted = 0;

  /** The join over the local store's users rows, or over a user pool's grants. */
  service(store: 'local' | 'pool' = 'local'): JoiningService {
    return new JoiningService(
      this.invitations as unknown as InvitationsStore,
      this.identity,
      this.memberships as unknown as MembershipsRepository,
      this.tenants as unknown as TenantStatusReader,
      store === 'local'
        ? new LocalMembershipBackend(this.identity)
        : new PoolMembershipBackend(
            this.identity,
            this.grants as unknown as MembershipGrantsRepository,
            this.worker as unknown as MembershipGrantsWorker,
          ),
      this.worker as unknown as MembershipGrantsWorker,
      this.customRoles as unknown as GrantsStore,
      new TestClock(NOW),
      { invitationAccepted: () => this.accepted++ } as unknown as Metrics,
    );
  }
}

export const caller = (overrides: Partial<Caller> = {}) =>
  ({ id: 'u-1', email: EMAIL, emailVerified: true, ...overrides }) as Caller;

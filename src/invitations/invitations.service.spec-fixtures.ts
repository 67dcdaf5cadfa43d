/**
 * What the InvitationsService specs share: an invitation, fakes of the store and of the tenants'
 * statuses, and the service in a Nest testing module over them (useInvitationsService).
 */

import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { invitationRow } from '../../test/support/invitation-row';
import { TestClock } from '../../test/support/test-clock';
import { Clock } from '../common/clock';
import { InvitationEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { Metrics } from '../metrics/metrics';
import { InvitationsService } from './invitations.service';
import { InvitationsStore } from './invitations.store';

export const NOW = new Date('2026-03-01T12:00:00.000Z');
export const DAY = 24 * 3600 * 1000;
export const TOKEN = '6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10';

/** A hand-written in-memory store with the real one's semantics: exact ids, conditional updates. */
class FakeInvitationsStore implements Pick<
  InvitationsStore,
  'findById' | 'findTenantName' | 'markExpired' | 'accept' | 'acceptAtOnce'
> {
  readonly rows = new Map<string, InvitationEntity>();
  readonly tenantNames = new Map<string, string | null>();
  /** Whether acceptAtOnce accepts in one round trip (the store on MySQL) or is not there (on SQLite). */
  atOnce = false;
  /** The tenants whose invitations the conditional update holds back (suspended, being deleted). */
  readonly closedTenants = new Set<string>();

  add(overrides: Partial<InvitationEntity> = {}): InvitationEntity {
    const row = invitationRow(TOKEN, NOW, overrides);
    this.rows.set(row.id, row);
    return { ...row };
  }
  async findById(id: string) {
    const row = this.rows.get(id);
    return row ? { ...row } : null;
  }
  async findTenantName(tenantId: string) {
    return this.tenantNames.get(tenantId) ?? null;
  }
  async markExpired({ id }: InvitationEntity) {
    const row = this.rows.get(id);
    if (row?.status !== 'pending') return false;
    row.status = 'expired';
    return true;
  }
  async accept({ id }: InvitationEntity, now: Date) {
    return this.acceptIfOpen(id, now);
  }
  async acceptAtOnce(id: string, now: Date) {
    if (!this.atOnce) return undefined;
    const accepted = this.acceptIfOpen(id, now);
    return { accepted, invitation: await this.findById(id) };
  }
  private acceptIfOpen(id: string, now: Date): boolean {
    const row = this.rows.get(id);
    if (!row || row.status === 'accepted' || row.status === 'revoked' || row.expiresAt < now) return false;
    if (this.closedTenants.has(row.tenantId)) return false;
    row.status = 'accepted';
    return true;
  }
}

/** Tenants' statuses by id; a tenant not set is absent. */
class FakeTenantStatuses implements Pick<TenantStatusReader, 'statusOf'> {
  readonly statuses = new Map<string, TenantStatus>();
  async statusOf(tenantId: string) {
    return this.statuses.get(tenantId) ?? null;
  }
}

/** What useInvitationsService gives a suite, made again before each test. */
export interface InvitationsServiceTest {
  store: FakeInvitationsStore;
  tenants: FakeTenantStatuses;
  service: InvitationsService;
  metrics: Metrics;
}

/** The service over fresh fakes before each test; the mocks restored after it. */
export function useInvitationsService(): InvitationsServiceTest {
  const t = {} as InvitationsServiceTest;
  beforeEach(async () => {
    const store = new FakeInvitationsStore();
    const tenants = new FakeTenantStatuses();
    const moduleRef = await Test.createTestingModule({
      providers: [
        InvitationsService,
        Metrics,
        { provide: InvitationsStore, useValue: store },
        { provide: Clock, useValue: new TestClock(NOW) },
        { provide: TenantStatusReader, useValue: tenants },
      ],
    }).compile();
    Object.assign(t, { store, tenants, service: moduleRef.get(InvitationsService), metrics: moduleRef.get(Metrics) });
    // The testing module turns Nest's logger back on: failures are logged, and asserted where it matters.
    jest.spyOn(Logger.prototype, 'error').mockImplementation();
  });
  afterEach(() => jest.restoreAllMocks());
  return t;
}

/**
 * What the OrgMembersService specs share: the caller, and the service over real repositories on
 * in-memory SQLite with the real migrations, a memory identity store and a fake outbox worker
 * (useOrgMembersService).
 */

import { RecordedSessionEnds } from '../../test/support/recorded-session-ends';
import { Logger } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import {
  auditRecorderOn,
  grantsStoreOn,
  invitationsStoreOn,
  memberPermissionsOn,
  membershipRemovalsOn,
  memoryDataSource,
} from '../../test/support/memory-data-source';
import { MemoryIdentityStore } from '../../test/support/memory-identity-store';
import { TestClock } from '../../test/support/test-clock';
import { OrgCaller } from '../auth/caller';
import { IdGenerator } from '../common/id-generator';
import { parseConfig } from '../config/app-config';
import { InvitationEmailOutboxEntity, InvitationEntity, TenantEntity } from '../database/entities';
import { InvitationIssuer } from '../invitations/invitation-issuer';
import { InvitationOutboxWorker } from '../mail/outbox/invitation-outbox.worker';
import { Metrics } from '../metrics/metrics';
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

export const NOW = new Date('2026-03-01T10:00:00.000Z');
export const TOKEN = '6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11';
export const TENANT = 'tenant-1';

export const caller = (overrides: Partial<OrgCaller> = {}): OrgCaller => ({
  id: 'owner-1',
  email: 'owner@acme.example',
  userType: 'org',
  tenantId: TENANT,
  role: 'owner',
  ...overrides,
});

/**
 * What useOrgMembersService gives a suite: the database and its repositories for the suite; the
 * identity store, the worker and the error log's spy fresh for each test.
 */
export interface OrgMembersServiceTest {
  dataSource: DataSource;
  invitations: Repository<InvitationEntity>;
  outboxRows: Repository<InvitationEmailOutboxEntity>;
  tenants: Repository<TenantEntity>;
  identity: MemoryIdentityStore;
  worker: FakeOutboxWorker;
  errors: jest.SpyInstance;
  /** The service, with `env` as its configuration. */
  service(env?: Record<string, string>): OrgMembersService;
}

/** Before each test the tables are emptied and the tenant Acme (pending_owner) is there again. */
export function useOrgMembersService(): OrgMembersServiceTest {
  const metrics = new Metrics();
  const t = {
    service: (env: Record<string, string> = {}) =>
      new OrgMembersService(
        t.identity,
        new InvitationIssuer(
          invitationsStoreOn(t.dataSource, new TestClock(NOW)),
          t.worker as unknown as InvitationOutboxWorker,
          new TestClock(NOW),
          new FixedIds(TOKEN),
          parseConfig(env),
          metrics,
        ),
        auditRecorderOn(t.dataSource, new TestClock(NOW)),
        grantsStoreOn(t.dataSource),
        memberPermissionsOn(t.dataSource),
        membershipRemovalsOn(t.dataSource),
        new TestClock(NOW),
        new RecordedSessionEnds(),
      ),
  } as OrgMembersServiceTest;

  beforeAll(async () => {
    t.dataSource = await memoryDataSource();
    t.invitations = t.dataSource.getRepository(InvitationEntity);
    t.outboxRows = t.dataSource.getRepository(InvitationEmailOutboxEntity);
    t.tenants = t.dataSource.getRepository(TenantEntity);
  });
  afterAll(() => t.dataSource.destroy());

  beforeEach(async () => {
    await t.invitations.clear();
    await t.outboxRows.clear();
    await t.tenants.clear();
    await t.tenants.insert({ id: TENANT, name: 'Acme', type: 'business', status: 'pending_owner', createdAt: NOW });
    t.identity = new MemoryIdentityStore();
    t.worker = new FakeOutboxWorker();
    t.errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());
  return t;
}

import { DataSource } from 'typeorm';
import { AuditRecorder } from '../../src/audit/audit-recorder';
import { AuditRows } from '../../src/audit/audit-rows';
import { Clock } from '../../src/common/clock';
import { IdGenerator } from '../../src/common/id-generator';
import { parseConfig } from '../../src/config/app-config';
import { AtomicWriter } from '../../src/database/atomic-writer';
import { MultiStatementPool } from '../../src/database/multi-statement-pool';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { PreparedStatements } from '../../src/database/prepared-statements';
import { InvitationsStore } from '../../src/invitations/invitations.store';
import { GrantsStore } from '../../src/permissions/grants.store';
import { MembershipRemovalsStore } from '../../src/memberships/membership-removals.store';
import { MemberPermissions } from '../../src/permissions/member-permissions';
import { ProductCatalogue } from '../../src/permissions/product-catalogue';
import { SsoSignInsStore } from '../../src/sso/sso-sign-ins.store';

/** An in-memory SQLite database on the real migrations, for unit tests of the stores. */
export function memoryDataSource(): Promise<DataSource> {
  return new DataSource(
    dataSourceOptions({ database: { type: 'sqlite', database: ':memory:' }, migrationsRun: true }),
  ).initialize();
}

/** The AtomicWriter on `dataSource`, and the rows of audit events (without webhooks) stamped by `clock`. */
function writesOn(dataSource: DataSource, clock: Clock) {
  return {
    writer: new AtomicWriter(dataSource, new MultiStatementPool(dataSource)),
    auditRows: new AuditRows(clock, new IdGenerator(), parseConfig({})),
  };
}

/** The real AuditRecorder on `dataSource`, for unit tests of the services that change the identity store. */
export function auditRecorderOn(dataSource: DataSource, clock: Clock = new Clock()): AuditRecorder {
  const { writer, auditRows } = writesOn(dataSource, clock);
  return new AuditRecorder(writer, auditRows);
}

/** The real InvitationsStore on `dataSource`, its audit events stamped by `clock`. */
export function invitationsStoreOn(dataSource: DataSource, clock: Clock = new Clock()): InvitationsStore {
  const { writer, auditRows } = writesOn(dataSource, clock);
  return new InvitationsStore(dataSource, new PreparedStatements(dataSource), writer, auditRows, new IdGenerator());
}

/** The real GrantsStore on `dataSource`: the reads of custom roles. */
export function grantsStoreOn(dataSource: DataSource): GrantsStore {
  return new GrantsStore(new PreparedStatements(dataSource));
}

/** The real MembershipRemovalsStore on `dataSource`. */
export function membershipRemovalsOn(dataSource: DataSource): MembershipRemovalsStore {
  return new MembershipRemovalsStore(new PreparedStatements(dataSource), writesOn(dataSource, new Clock()).writer);
}

/** The real MemberPermissions on `dataSource`, with the default limits. */
export function memberPermissionsOn(dataSource: DataSource, env: Record<string, string> = {}): MemberPermissions {
  const grants = grantsStoreOn(dataSource);
  return new MemberPermissions(grants, new ProductCatalogue(grants), parseConfig(env));
}

/** The real SsoSignInsStore on `dataSource`: pending sign-ins, assertions used, attempts. */
export function ssoSignInsStoreOn(dataSource: DataSource): SsoSignInsStore {
  const { writer, auditRows } = writesOn(dataSource, new Clock());
  return new SsoSignInsStore(dataSource, new PreparedStatements(dataSource), writer, auditRows);
}

import { AuditActor, auditEvents, NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter } from '../database/atomic-writer';
import { TenantEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { PreparedStatements, Row, sqlTimestamp, timestamp } from '../database/prepared-statements';
import { OPEN_STATUSES } from '../invitations/invitation';
import { SqlStore } from '../database/sql-store';
import { tenantActivation } from '../database/tenant-status-reader';

/** A tenant as listed: its creation time as ISO 8601 text. */
export type ListedTenant = Omit<TenantEntity, 'createdAt'> & { createdAt: string };

/**
 * The tenants of the list, oldest first (created_at, then id): every one but the deleted ones
 * (kept for the audit trail), or those with the statuses asked for. Each row is a ListedTenant as
 * read: the creation time is made ISO 8601 text by the database (`createdAt`, see
 * PreparedStatements.isoTimestampSql). A read is a page of the list after a key, from an index
 * in the list's order: IDX_tenants_list without a filter, IDX_tenants_status_list one status at a
 * time (several are merged with UNION ALL), so that it reads about as many rows as it returns.
 */
const selectTenants = (createdAt: string, index: string | undefined) =>
  `SELECT id, name, type, status, ${createdAt} AS createdAt FROM tenants${index ? ` FORCE INDEX (${index})` : ''}`;
/** After a key: `>=` first, so that the index seeks to it. */
const AFTER_KEY = ' AND created_at >= ? AND (created_at > ? OR id > ?)';
const inListOrder = (take: number) => ` ORDER BY created_at, id LIMIT ${Math.trunc(take)}`;

/** Where a page of the tenant list starts: after the tenant created at `createdAt` (ISO 8601) with this id. */
export interface TenantListKey {
  createdAt: string;
  id: string;
}
/** The status that reactivation gives back to a tenant suspended without one on record (by hand, in the database). */
export const STATUS_AFTER_SUSPENSION_FALLBACK = 'active';

const OPEN = OPEN_STATUSES.map((status) => `'${status}'`).join(', ');
const SELECT_TENANT =
  'SELECT id, name, type, status, created_at, status_before_suspension, deleted_at FROM tenants WHERE id = ?';
/** Read from the (tenant_id, status, expires_at) index alone. */
const COUNT_PENDING_INVITATIONS =
  "SELECT COUNT(*) AS pending FROM tenant_invitations WHERE tenant_id = ? AND status = 'pending' AND expires_at >= ?";

/** The compare-and-sets of the lifecycle, each written with its audit event (AuditRecorder). */
const UPDATE_UNLESS_DELETED = "UPDATE tenants SET name = ?, type = ? WHERE id = ? AND status <> 'deleted'";
// MySQL assigns left to right, each assignment seeing the ones before it; SQLite assigns from the
// row as it was. In this order both keep the status before changing it.
const SUSPEND_IF_STATUS =
  "UPDATE tenants SET status_before_suspension = status, status = 'suspended' WHERE id = ? AND status = ?";
const REACTIVATE_IF_SUSPENDED =
  `UPDATE tenants SET status = COALESCE(status_before_suspension, '${STATUS_AFTER_SUSPENSION_FALLBACK}'), ` +
  "status_before_suspension = NULL WHERE id = ? AND status = 'suspended'";
const BEGIN_DELETION =
  "UPDATE tenants SET status = 'deleted', status_before_suspension = NULL WHERE id = ? AND status <> 'deleted'";
const FINISH_DELETION = "UPDATE tenants SET deleted_at = ? WHERE id = ? AND status = 'deleted' AND deleted_at IS NULL";

/** The e-mails that the outbox held back during the suspension (InvitationOutboxWorker), due again at once. */
const RELEASE_HELD_EMAILS =
  'UPDATE invitation_email_outbox SET next_attempt_at = ? ' +
  `WHERE status = 'pending' AND invitation_id IN (SELECT id FROM tenant_invitations WHERE tenant_id = ? AND status IN (${OPEN}))`;

/** A batch of a tenant's open invitations, by the (tenant_id, status, expires_at) index; the limit is ours, written in. */
const selectOpenInvitationIds = (limit: number) =>
  `SELECT id FROM tenant_invitations WHERE tenant_id = ? AND status IN (${OPEN}) LIMIT ${Math.trunc(limit)}`;
const revokeInvitations = (count: number) =>
  `UPDATE tenant_invitations SET status = 'revoked' WHERE status IN (${OPEN}) AND id IN (${Array(count).fill('?').join(', ')})`;

/**
 * A tenant with the lifecycle's own columns (migration AddTenantLifecycle). The entity leaves them
 * out: everything else reads the contract's columns, and only this repository needs these.
 */
export interface TenantRecord extends TenantEntity {
  /** While suspended: the status that reactivation gives back. */
  statusBeforeSuspension: string | null;
  /** When a deletion finished; null while one is under way (status `deleted`) and on every other tenant. */
  deletedAt: Date | null;
}

const toTenant = (row: Row): TenantRecord => ({
  id: row.id as string,
  name: row.name as string | null,
  type: row.type as string,
  status: row.status as string,
  createdAt: timestamp(row.created_at),
  statusBeforeSuspension: row.status_before_suspension as string | null,
  deletedAt: row.deleted_at === null ? null : timestamp(row.deleted_at),
});

/**
 * The tenant rows, with parameterised queries only. Each change of the lifecycle
 * (docs/tenant-lifecycle.md) is a compare-and-set on the state it was decided on, written with its
 * audit event, so that of two operators acting at once exactly one changes the tenant.
 */
@SqlStore()
export class TenantsStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
  ) {}

  /**
   * Up to `take` tenants of the list after `after`, rows as the database sends them: a pass that
   * made each row again (with its time as text) cost a seventh of the server's time on a long list.
   */
  async list(
    statuses: TenantStatus[] | undefined,
    after: TenantListKey | undefined,
    take: number,
  ): Promise<ListedTenant[]> {
    const mysql = this.statements.dialect === 'mysql';
    const createdAt = this.statements.isoTimestampSql('created_at');
    const key = after
      ? [sqlTimestamp(new Date(after.createdAt)), sqlTimestamp(new Date(after.createdAt)), after.id]
      : [];
    const keyset = after ? AFTER_KEY : '';
    if (!statuses) {
      const sql =
        `${selectTenants(createdAt, mysql ? 'IDX_tenants_list' : undefined)} WHERE status <> ` +
        `'deleted'${keyset}${inListOrder(take)}`;
      return (await this.statements.manyRows(sql, key)) as ListedTenant[];
    }
    const distinct = [...new Set(statuses)];
    const arm = `${selectTenants(createdAt, mysql ? 'IDX_tenants_status_list' : undefined)} WHERE status = ?${keyset}${inListOrder(take)}`;
    const sql =
      distinct.length === 1
        ? arm
        : distinct.map((_, i) => `SELECT * FROM (${arm}) AS status_${i}`).join(' UNION ALL ') +
          ` ORDER BY createdAt, id LIMIT ${Math.trunc(take)}`;
    const parameters = distinct.flatMap((status) => [status, ...key]);
    return (await this.statements.manyRows(sql, parameters)) as ListedTenant[];
  }

  /** Stores the tenant and its audit event, both or neither. The actor is null when the operator CLI creates it. */
  async create(tenant: TenantEntity, actor: AuditActor | null): Promise<void> {
    await this.writer.insert([[TenantEntity, tenant], ...this.auditRows.of(auditEvents.tenantCreated(tenant, actor))]);
  }

  /** A pending_owner tenant becomes active, as at its first owner's join, with the event; false when it was not pending. */
  async activate(tenantId: string, event: NewAuditEvent): Promise<boolean> {
    return this.writer.insertIfAll(this.auditRows.of(event), [tenantActivation(tenantId)]);
  }

  /** The tenant whose id is exactly `id`, or null. */
  async find(id: string): Promise<TenantRecord | null> {
    const row = await this.statements.first(SELECT_TENANT, [id]);
    // MySQL pads trailing spaces even in a binary collation: only the exact id counts.
    return row?.id === id ? toTenant(row) : null;
  }

  /** Invitations still pending at `now` (a pending one past its expiry is expired). */
  async countPendingInvitations(tenantId: string, now: Date): Promise<number> {
    const row = await this.statements.first(COUNT_PENDING_INVITATIONS, [tenantId, sqlTimestamp(now)]);
    return Number(row?.pending ?? 0);
  }

  /** Writes `tenant`'s name and type unless it has been deleted meanwhile; false when it has (or is gone). */
  async update(tenant: TenantEntity, event: NewAuditEvent): Promise<boolean> {
    return this.writer.insert(this.auditRows.of(event), [UPDATE_UNLESS_DELETED, [tenant.name, tenant.type, tenant.id]]);
  }

  /** Suspends the tenant if its status is still `tenant.status`, which reactivation gives back. */
  async suspend(tenant: TenantEntity, event: NewAuditEvent): Promise<boolean> {
    return this.writer.insert(this.auditRows.of(event), [SUSPEND_IF_STATUS, [tenant.id, tenant.status]]);
  }

  /** Gives a suspended tenant back its status from before the suspension. */
  async reactivate(tenantId: string, event: NewAuditEvent): Promise<boolean> {
    return this.writer.insert(this.auditRows.of(event), [REACTIVATE_IF_SUSPENDED, [tenantId]]);
  }

  /**
   * Makes the tenant's pending e-mails due at `now`: those that the outbox held back while the
   * tenant was suspended go out at its next round rather than at their next check.
   */
  async releaseHeldEmails(tenantId: string, now: Date): Promise<void> {
    await this.statements.changes(RELEASE_HELD_EMAILS, [sqlTimestamp(now), tenantId]);
  }

  /**
   * The first step of a deletion: status `deleted`, which shuts the tenant's people out at once,
   * with no `deleted_at` yet. False when the tenant was already deleted (or is gone).
   */
  async beginDeletion(tenantId: string): Promise<boolean> {
    return (await this.statements.changes(BEGIN_DELETION, [tenantId])) === 1;
  }

  /** Revokes up to `limit` of the tenant's open invitations in one statement; how many. */
  async revokeOpenInvitations(tenantId: string, limit: number): Promise<number> {
    const ids = (await this.statements.rows(selectOpenInvitationIds(limit), [tenantId])).map((row) => row.id);
    if (!ids.length) return 0;
    return this.statements.changes(revokeInvitations(ids.length), ids);
  }

  /** The last step of a deletion, with its event: false when another request finished it first. */
  async finishDeletion(tenantId: string, now: Date, event: NewAuditEvent): Promise<boolean> {
    return this.writer.insert(this.auditRows.of(event), [FINISH_DELETION, [sqlTimestamp(now), tenantId]]);
  }
}

import { RequiredUpdate } from './atomic-writer';
import { TenantStatus } from './entities/tenant.entity';
import { PreparedStatements } from './prepared-statements';
import {
  SESSION_PROBE_COLUMNS,
  SESSION_PROBE_JOINS,
  SessionAsk,
  SessionProbe,
  sessionProbeParameters,
  toSessionProbe,
} from './session-probe';
import { SqlStore } from './sql-store';

const SELECT_TENANT_STATUS = 'SELECT id, status FROM tenants WHERE id = ?';
/** Whether the tenant requires single sign-on of its members: a primary-key read beside its status. */
export const SSO_ENFORCED_COLUMN =
  'EXISTS (SELECT 1 FROM sso_enforcements WHERE sso_enforcements.tenant_id = tenants.id)';
/** The gate, and the request's session (SESSION_PROBE_JOINS), in one row whatever exists. */
const SELECT_TENANT_GATE_AND_SESSION =
  `SELECT tenants.id AS tenant_row_id, tenants.status, ${SSO_ENFORCED_COLUMN} AS sso_enforced, ` +
  `${SESSION_PROBE_COLUMNS} FROM (SELECT 1 AS one) o LEFT JOIN tenants ON tenants.id = ? ${SESSION_PROBE_JOINS}`;

/** What the org guard reads of a tenant on every request: its status, and whether it requires single sign-on. */
export interface TenantGate {
  status: TenantStatus;
  ssoEnforced: boolean;
}

/** What the org guard reads beside the person: the tenant's gate and the request's session. */
export interface GateAndSession {
  gate: TenantGate | null;
  session: SessionProbe;
}

/** A tenant row's gate as read; 1, "1" or true for an enforced one, whatever the driver gives. */
export const toTenantGate = (status: unknown, ssoEnforced: unknown): TenantGate => ({
  status: status as TenantStatus,
  ssoEnforced: Number(ssoEnforced) === 1 || ssoEnforced === true,
});

/**
 * The one check of a tenant's lifecycle state that every path asks before it lets a tenant's
 * people act: the org guard, the invitation accept (and join), the invitation page and the e-mail
 * outbox. A primary-key read at the time of asking, never cached, and causal on a Galera node
 * (PreparedStatements.first), so that a suspension made through one instance holds from the next
 * request on every instance, whichever node each uses.
 */
@SqlStore()
export class TenantStatusReader {
  /** The reads on their way for statusOfShared, by tenant. */
  private readonly sharedReads = new Map<string, Promise<TenantStatus | null>>();

  constructor(private readonly statements: PreparedStatements) {}

  /** The tenant's status; null when there is no such tenant (the spec's "tenant absent"). */
  async statusOf(tenantId: string): Promise<TenantStatus | null> {
    const row = await this.statements.first(SELECT_TENANT_STATUS, [tenantId], true);
    // MySQL pads trailing spaces even in a binary collation: only the exact id counts.
    return row?.id === tenantId ? (row.status as TenantStatus) : null;
  }

  /**
   * The tenant's gate (status and single sign-on enforcement; null when there is no such tenant) and
   * the request's session, in one round trip: the org guard's read where the person lives elsewhere.
   */
  async gateAndSessionOf(tenantId: string, ask: SessionAsk): Promise<GateAndSession> {
    const row = (await this.statements.first(
      SELECT_TENANT_GATE_AND_SESSION,
      [tenantId, ...sessionProbeParameters(ask)],
      true,
    ))!;
    return {
      gate: row.tenant_row_id === tenantId ? toTenantGate(row.status, row.sso_enforced) : null,
      session: toSessionProbe(row, ask.sid),
    };
  }

  /**
   * As statusOf, for asks that come in bursts: the e-mail outbox sends the e-mails of many
   * invitations to one tenant at once, and each asks. An ask while a read of that tenant is on its
   * way shares that read instead of sending another, so its answer is at most one round trip older
   * than the ask; the next ask after it settles reads again.
   */
  statusOfShared(tenantId: string): Promise<TenantStatus | null> {
    let read = this.sharedReads.get(tenantId);
    if (!read) {
      read = this.statusOf(tenantId).finally(() => this.sharedReads.delete(tenantId));
      this.sharedReads.set(tenantId, read);
    }
    return read;
  }
}

/** A tenant is pending_owner from its creation (spec 4.4) until its first owner joins; then active. */
export const tenantActivation = (tenantId: string): RequiredUpdate => [
  "UPDATE tenants SET status = 'active' WHERE id = ? AND status = 'pending_owner'",
  [tenantId],
];

/** The statuses in which a tenant's invitations cannot be accepted: suspended, or being deleted. */
export const CLOSED_TENANT_STATUSES: TenantStatus[] = ['suspended', 'deleted'];

/**
 * SQL that holds when the tenant whose id is in `tenantIdColumn` is not closed (an absent tenant
 * is not): the condition a compare-and-set adds so that a suspension landing between its read and
 * its write still wins.
 */
export const tenantIsOpenSql = (tenantIdColumn: string): string =>
  `NOT EXISTS (SELECT 1 FROM tenants WHERE tenants.id = ${tenantIdColumn} AND tenants.status ` +
  `IN (${CLOSED_TENANT_STATUSES.map((status) => `'${status}'`).join(', ')}))`;

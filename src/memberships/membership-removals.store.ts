import { emailKey } from '../common/email-comparison';
import { AtomicWriter, Insert, Statement } from '../database/atomic-writer';
import { MembershipRemovalEntity, RemovalReason } from '../database/entities/membership-removal.entity';
import { PreparedStatements, sqlTimestamp } from '../database/prepared-statements';
import { SqlStore } from '../database/sql-store';

/** That the organisation took the person out, and why; `email` is their address then. */
export interface MembershipRemoval {
  tenantId: string;
  userId: string;
  email: string;
  reason: RemovalReason;
  at: Date;
}

/** Tenants read per statement by removedFrom: the joinable list's few, padded to one statement. */
const TENANTS_PER_READ = 16;

const DELETE_REMOVAL = 'DELETE FROM membership_removals WHERE tenant_id = ? AND user_id = ?';
/**
 * The organisations among the given ones that removed the person (by hand, or SCIM), unless they
 * invited the address since: by primary key, and each invitation by (tenant, address).
 */
const SELECT_REMOVED_FROM =
  'SELECT r.tenant_id AS tenantId FROM membership_removals r ' +
  `WHERE r.user_id = ? AND r.tenant_id IN (${Array(TENANTS_PER_READ).fill('?').join(', ')}) ` +
  "AND r.reason <> 'account_deleted' AND NOT EXISTS (SELECT 1 FROM tenant_invitations i " +
  'WHERE i.tenant_id = r.tenant_id AND i.email_key = ? AND i.created_at > r.removed_at)';
const SELECT_ACCOUNT_DELETED =
  'SELECT removed_at AS removedAt FROM membership_removals ' +
  "WHERE tenant_id = ? AND user_id = ? AND reason = 'account_deleted' AND removed_at >= ?";
const SELECT_REQUESTED_TENANTS =
  "SELECT tenant_id AS tenantId FROM join_requests WHERE user_id = ? AND status = 'pending'";

/**
 * Removals kept as facts (docs/domains.md): one row per membership that an organisation ended, kept
 * until SCIM brings the person back (a later invitation of their address outweighs it when read).
 * Every path that removes writes it, in its own transaction where it has one; the domain join,
 * join requests and the joinable list read it. The audit trail is a record: its purge changes nothing here.
 */
@SqlStore()
export class MembershipRemovalsStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
  ) {}

  /** The removal, for the caller's transaction: an earlier one of the same membership is replaced. */
  written(removal: MembershipRemoval): { inserts: Insert[]; deletes: Statement[] } {
    const row: MembershipRemovalEntity = {
      tenantId: removal.tenantId,
      userId: removal.userId,
      emailKey: emailKey(removal.email),
      reason: removal.reason,
      removedAt: removal.at,
    };
    return { inserts: [[MembershipRemovalEntity, row]], deletes: [this.cleared(removal.tenantId, removal.userId)] };
  }

  /** What brings the person back (SCIM reactivating or provisioning them): a statement for the caller's transaction. */
  cleared(tenantId: string, userId: string): Statement {
    return [DELETE_REMOVAL, [tenantId, userId]];
  }

  /** The removals, in a transaction of their own: for a removal whose membership lives in the identity store. */
  async remember(removals: MembershipRemoval[]): Promise<void> {
    if (!removals.length) return;
    const written = removals.map((removal) => this.written(removal));
    await this.writer.insertIfAll(
      written.flatMap(({ inserts }) => inserts),
      [],
      written.flatMap(({ deletes }) => deletes),
    );
  }

  /** Which of these organisations removed the person and have not invited `email` since. */
  async removedFrom(userId: string, email: string, tenantIds: string[]): Promise<Set<string>> {
    const removed = new Set<string>();
    const unique = [...new Set(tenantIds)];
    for (let start = 0; start < unique.length; start += TENANTS_PER_READ) {
      const batch = unique.slice(start, start + TENANTS_PER_READ);
      const padded = [...batch, ...Array<string>(TENANTS_PER_READ - batch.length).fill(batch[batch.length - 1])];
      const rows = await this.statements.causalRows(SELECT_REMOVED_FROM, [userId, ...padded, emailKey(email)]);
      // MySQL pads trailing spaces even in a binary collation: only the exact ids count.
      for (const row of rows) if (batch.includes(row.tenantId as string)) removed.add(row.tenantId as string);
    }
    return removed;
  }

  /** Whether an operator deleted the account at or after `since` while it belonged to, or asked to join, the organisation. */
  async accountDeletedSince(tenantId: string, userId: string, since: Date): Promise<boolean> {
    return (
      (await this.statements.first(SELECT_ACCOUNT_DELETED, [tenantId, userId, sqlTimestamp(since)], true)) !== undefined
    );
  }

  /** The organisations the person has asked to join and not yet heard from: an account deleted leaves them a fact. */
  async requestedTenants(userId: string): Promise<string[]> {
    return (await this.statements.rows(SELECT_REQUESTED_TENANTS, [userId])).map((row) => row.tenantId as string);
  }
}

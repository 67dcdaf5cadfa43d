import { RequiredUpdate, Statement } from '../database/atomic-writer';
import { PreparedStatements } from '../database/prepared-statements';
import { isUniqueViolation } from '../database/unique-violation';
import { SqlStore } from '../database/sql-store';

/** A grant on its way: not yet delivered (a delivered grant is deleted) nor failed. */
const SELECT_PENDING =
  "SELECT tenant_id, role FROM membership_grants WHERE user_id = ? AND status IN ('pending', 'sending')";

const SELECT_VERSION = 'SELECT version FROM membership_versions WHERE user_id = ?';
const BUMP_VERSION = 'UPDATE membership_versions SET version = version + 1 WHERE user_id = ? AND version = ?';
const DELETE_GRANT = 'DELETE FROM membership_grants WHERE user_id = ? AND tenant_id = ?';

/**
 * What the join's rules read of `membership_grants` and `membership_versions`; the grants' delivery (MembershipGrantsWorker)
 * claims, retries and deletes them through OutboxRows.
 */
@SqlStore()
export class MembershipGrantsRepository {
  constructor(private readonly statements: PreparedStatements) {}

  /** The membership on its way to the pool for this user, or null. */
  async pendingFor(userId: string): Promise<{ tenantId: string; role: string } | null> {
    const row = await this.statements.first(SELECT_PENDING, [userId]);
    return row?.tenant_id === undefined ? null : { tenantId: row.tenant_id as string, role: row.role as string };
  }

  /**
   * The user's membership version, read before their membership is (a grant on its way, then the
   * pool): a grant written with `versionUnchanged` of it goes through only if no other grant was
   * written for them since, whoever wrote it (a join, a domain join, a SCIM adoption).
   */
  async versionOf(userId: string): Promise<number> {
    const row = await this.statements.first(SELECT_VERSION, [userId]);
    if (row) return Number(row.version);
    try {
      await this.statements.changes('INSERT INTO membership_versions (user_id, version) VALUES (?, 0)', [userId]);
    } catch (error) {
      // Made by a parallel first read: 0 still, or raised already, when this one's write will lose.
      if (!isUniqueViolation(error)) throw error;
    }
    return 0;
  }

  /** The statement that takes back a grant not yet sent (its writer holds its claim). */
  grantDeletion(userId: string, tenantId: string): Statement {
    return [DELETE_GRANT, [userId, tenantId]];
  }

  /** The compare-and-set that raises the version, in the grant's transaction. */
  versionUnchanged(userId: string, version: number): RequiredUpdate {
    return [BUMP_VERSION, [userId, version]];
  }
}

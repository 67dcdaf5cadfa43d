import { Injectable } from '@nestjs/common';
import { PreparedStatements } from '../database/prepared-statements';

/** A grant on its way: not yet delivered (a delivered grant is deleted) nor failed. */
const SELECT_PENDING =
  "SELECT tenant_id, role FROM membership_grants WHERE user_id = ? AND status IN ('pending', 'sending')";

/**
 * What the join's rules read of `membership_grants`; the grants' delivery (MembershipGrantsWorker)
 * claims, retries and deletes them through OutboxRows.
 */
@Injectable()
export class MembershipGrantsRepository {
  constructor(private readonly statements: PreparedStatements) {}

  /** The membership on its way to the pool for this user, or null. */
  async pendingFor(userId: string): Promise<{ tenantId: string; role: string } | null> {
    const row = await this.statements.first(SELECT_PENDING, [userId]);
    return row?.tenant_id === undefined ? null : { tenantId: row.tenant_id as string, role: row.role as string };
  }
}

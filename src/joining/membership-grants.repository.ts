import { Injectable } from '@nestjs/common';
import { MembershipGrantEntity } from '../database/entities';
import { PreparedStatements, Row, sqlTimestamp } from '../database/prepared-statements';

const LAST_ERROR_LENGTH = 1_000;

/** Grants nobody holds, or whose holder's claim has lapsed; its parameters are the time, twice. */
const CLAIMABLE = 'next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)';
const SELECT_PENDING = 'SELECT tenant_id, role FROM membership_grants WHERE user_id = ?';
const CLAIM =
  'UPDATE membership_grants SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1 ' +
  `WHERE user_id = ? AND tenant_id = ? AND role = ? AND ${CLAIMABLE}`;
const RELEASE =
  'UPDATE membership_grants SET claimed_by = NULL, claimed_until = NULL, next_attempt_at = ?, last_error = ? WHERE user_id = ? AND claimed_by = ?';
const DELETE = 'DELETE FROM membership_grants WHERE user_id = ? AND claimed_by = ?';

/** A grant as its retries read it. */
export type DueGrant = Pick<MembershipGrantEntity, 'userId' | 'tenantId' | 'role' | 'attempts'>;

/**
 * The rows of `membership_grants` after the join has written them: claimed with a compare-and-set,
 * so that of several instances one writes each grant at a time; deleted once the pool has it.
 */
@Injectable()
export class MembershipGrantsRepository {
  constructor(private readonly statements: PreparedStatements) {}

  /** The membership on its way to the pool for this user, or null. */
  async pendingFor(userId: string): Promise<{ tenantId: string; role: string } | null> {
    const row = await this.statements.first(SELECT_PENDING, [userId]);
    return row?.tenant_id === undefined ? null : { tenantId: row.tenant_id as string, role: row.role as string };
  }

  /** Up to `limit` grants that may be claimed at `now`, the longest due first. */
  async due(now: Date, limit: number): Promise<DueGrant[]> {
    const at = sqlTimestamp(now);
    // The limit is written into the statement (a small integer of ours): a LIMIT parameter is not portable.
    const sql = `SELECT user_id, tenant_id, role, attempts FROM membership_grants WHERE ${CLAIMABLE} ORDER BY next_attempt_at LIMIT ${Math.trunc(limit)}`;
    return (await this.statements.rows(sql, [at, at])).map(toDueGrant);
  }

  /** Claims the grant for `worker` until `until` and counts an attempt; false when another worker has it or it changed. */
  async claim(grant: DueGrant, worker: string, now: Date, until: Date): Promise<boolean> {
    const at = sqlTimestamp(now);
    const parameters = [worker, sqlTimestamp(until), grant.userId, grant.tenantId, grant.role, at, at];
    return (await this.statements.changes(CLAIM, parameters)) === 1;
  }

  /** Gives the grant back, to be tried again at `at`. */
  async retryLater(userId: string, worker: string, at: Date, error: string): Promise<boolean> {
    return (await this.statements.changes(RELEASE, [sqlTimestamp(at), error.slice(0, LAST_ERROR_LENGTH), userId, worker])) === 1;
  }

  /** The pool has it (or it is moot): gone. */
  async remove(userId: string, worker: string): Promise<boolean> {
    return (await this.statements.changes(DELETE, [userId, worker])) === 1;
  }
}

const toDueGrant = (row: Row): DueGrant => ({
  userId: row.user_id as string,
  tenantId: row.tenant_id as string,
  role: row.role as string,
  attempts: Number(row.attempts),
});

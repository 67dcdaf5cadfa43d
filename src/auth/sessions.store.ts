import { AtomicWriter, Insert } from '../database/atomic-writer';
import { SessionEntity, SessionKind, SessionRevocationReason } from '../database/entities/session.entity';
import { PreparedStatements, Row, sqlTimestamp, timestamp } from '../database/prepared-statements';
import {
  SESSION_PROBE_COLUMNS,
  SESSION_PROBE_JOINS,
  SessionAsk,
  SessionProbe,
  sessionProbeParameters,
  toSessionProbe,
} from '../database/session-probe';
import { SqlStore } from '../database/sql-store';

/** A session as its person and administrators see it. */
export interface ListedSession {
  id: string;
  tenantId: string | null;
  kind: SessionKind;
  connection: { id: string; name: string } | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  idleSeconds: number;
  userAgent: string | null;
  ip: string | null;
}

/**
 * The check's one read, causal on a Galera node (as the tenant status read): a sign-out through one
 * instance holds at the next request on every instance. A row for the person's cutoff and one for the
 * session, each by primary key, whichever exist.
 */
const PROBE = `SELECT ${SESSION_PROBE_COLUMNS} FROM (SELECT 1 AS one) o ${SESSION_PROBE_JOINS}`;

const LISTED_COLUMNS =
  's.id, s.tenant_id, s.kind, s.connection_id, c.name AS connection_name, s.created_at, s.last_used_at, ' +
  's.expires_at, s.idle_seconds, s.user_agent, s.ip';
/**
 * By the person's index: at a million rows SQLite's planner took the expiry index instead, reading
 * every live session of the service for one person's.
 */
const USER_INDEX = { mysql: 'FORCE INDEX (IDX_sessions_user)', sqlite: 'INDEXED BY IDX_sessions_user' };
const liveOfUser = (dialect: 'mysql' | 'sqlite') =>
  `SELECT ${LISTED_COLUMNS} FROM sessions s ${USER_INDEX[dialect]} LEFT JOIN sso_connections c ON c.id = s.connection_id ` +
  'WHERE s.user_id = ? AND s.revoked_at IS NULL AND s.expires_at > ? ORDER BY s.created_at DESC, s.id DESC';

/** A revocation brings the row's expiry forward to it, so that the purge needs one index. */
const REVOKE =
  'UPDATE sessions SET revoked_at = ?, revoked_reason = ?, ' +
  'expires_at = CASE WHEN expires_at > ? THEN ? ELSE expires_at END WHERE id = ? AND revoked_at IS NULL';

const CUTOFF_IF_MISSING = {
  mysql: 'INSERT IGNORE INTO session_cutoffs (user_id, not_before) VALUES (?, 0)',
  sqlite: 'INSERT INTO session_cutoffs (user_id, not_before) VALUES (?, 0) ON CONFLICT (user_id) DO NOTHING',
};

/** Ended sessions past retention, oldest first, a batch at a time (the index on expires_at). */
const PURGE_BATCH = 500;

/** The SQL of sessions: made, checked on each request, listed, ended, purged. */
@SqlStore()
export class SessionsStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
  ) {}

  async insert(session: SessionEntity): Promise<void> {
    await this.writer.insert([[SessionEntity, session]]);
  }

  /** The person's cutoff and the session `sid` (null: a token without one), in one read. */
  async probe(ask: SessionAsk): Promise<SessionProbe> {
    return toSessionProbe((await this.statements.first(PROBE, sessionProbeParameters(ask), true))!, ask.sid);
  }

  /** The OIDC connection that made the session: its client id and discovery document (JSON), for a sign-out. */
  async oidcConnectionOf(sid: string): Promise<{ clientId: string; discovery: string } | null> {
    const row = await this.statements.first(
      "SELECT c.client_id, c.discovery FROM sessions s JOIN sso_connections c ON c.id = s.connection_id WHERE s.id = ? AND c.type = 'oidc'",
      [sid],
    );
    return row ? { clientId: String(row.client_id), discovery: String(row.discovery) } : null;
  }

  /** The session's last use, unless another request wrote one since `staleBefore`. */
  async touch(sid: string, now: Date, staleBefore: Date): Promise<void> {
    await this.statements.changes('UPDATE sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?', [
      sqlTimestamp(now),
      sid,
      sqlTimestamp(staleBefore),
    ]);
  }

  /** The person's unrevoked, unexpired sessions, newest first (the idle ones included: the caller judges). */
  async liveOf(userId: string, now: Date): Promise<ListedSession[]> {
    const rows = await this.statements.causalRows(liveOfUser(this.statements.dialect), [userId, sqlTimestamp(now)]);
    return rows.filter((row) => row.id !== null).map(toListedSession);
  }

  /**
   * Ends one session, with the rows of its event, in one transaction; false when it had ended
   * already (of two revocations at once, one writes and records it).
   */
  revoke(sid: string, reason: SessionRevocationReason, now: Date, eventRows: Insert[]): Promise<boolean> {
    const at = sqlTimestamp(now);
    return this.writer.insert(eventRows, [REVOKE, [at, reason, at, at, sid]]);
  }

  /** The live sessions of the person that were made for an organisation (all of them with `tenantId` undefined). */
  async liveFor(userId: string, tenantId: string | undefined, now: Date): Promise<ListedSession[]> {
    const live = await this.liveOf(userId, now);
    return tenantId === undefined ? live : live.filter((session) => session.tenantId === tenantId);
  }

  /** The live sessions that an organisation's people hold, or that a connection made: a bounded page. */
  async liveWhere(
    column: 'tenant_id' | 'connection_id',
    value: string,
    now: Date,
    take: number,
  ): Promise<(ListedSession & { userId: string })[]> {
    const rows = await this.statements.causalRows(
      `SELECT ${LISTED_COLUMNS}, s.user_id FROM sessions s LEFT JOIN sso_connections c ON c.id = s.connection_id ` +
        `WHERE s.${column} = ? AND s.revoked_at IS NULL AND s.expires_at > ? ORDER BY s.id LIMIT ${Number(take)}`,
      [value, sqlTimestamp(now)],
    );
    return rows.map((row) => ({ ...toListedSession(row), userId: String(row.user_id) }));
  }

  /**
   * Sets the person's "not before" (epoch seconds) with its event's rows, in one transaction; false
   * when it was that already (two in the same second: the first recorded it).
   */
  async setNotBefore(userId: string, notBefore: number, eventRows: Insert[]): Promise<boolean> {
    await this.statements.changes(CUTOFF_IF_MISSING[this.statements.dialect], [userId]);
    return this.writer.insert(eventRows, [
      'UPDATE session_cutoffs SET not_before = ? WHERE user_id = ? AND not_before < ?',
      [notBefore, userId, notBefore],
    ]);
  }

  /** Deletes the sessions that ended before `cutoff`, in short batches; how many. */
  async purgeEndedBefore(cutoff: Date): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.statements.rows(
        `SELECT id FROM sessions WHERE expires_at < ? ORDER BY expires_at LIMIT ${PURGE_BATCH}`,
        [sqlTimestamp(cutoff)],
      );
      if (!batch.length) return deleted;
      deleted += await this.statements.changes(
        `DELETE FROM sessions WHERE id IN (${batch.map(() => '?').join(', ')}) AND expires_at < ?`,
        [...batch.map((row) => row.id), sqlTimestamp(cutoff)],
      );
      if (batch.length < PURGE_BATCH) return deleted;
    }
  }
}

function toListedSession(row: Row): ListedSession {
  return {
    id: String(row.id),
    tenantId: row.tenant_id === null ? null : String(row.tenant_id),
    kind: row.kind as SessionKind,
    connection:
      row.connection_id === null
        ? null
        : { id: String(row.connection_id), name: row.connection_name === null ? '' : String(row.connection_name) },
    createdAt: timestamp(row.created_at),
    lastUsedAt: timestamp(row.last_used_at),
    expiresAt: timestamp(row.expires_at),
    idleSeconds: Number(row.idle_seconds),
    userAgent: row.user_agent === null ? null : String(row.user_agent),
    ip: row.ip === null ? null : String(row.ip),
  };
}

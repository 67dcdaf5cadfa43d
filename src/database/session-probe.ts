/**
 * The part of a request's read that says whether its token is still a session (docs/sessions.md): the
 * person's "not before" and the session its `sid` names, with the connection that made it. Joined into
 * the statement a guard makes anyway (the org guard's record and tenant gate), or read alone by
 * SessionsStore.probe, so that the check costs no round trip of its own where a read is made already.
 */
import { SsoConnectionStatus } from './entities/sso.entity';
import { Row, timestamp } from './prepared-statements';

/** What a request's check reads: the person's "not before" and the session its token names. */
export interface SessionProbe {
  /** Epoch seconds; null when the person has none. */
  notBefore: number | null;
  session: ProbedSession | null;
}

export interface ProbedSession {
  id: string;
  userId: string;
  tenantId: string | null;
  lastUsedAt: Date;
  expiresAt: Date;
  idleSeconds: number;
  revokedAt: Date | null;
  /** The connection that made it, as it is now; null when none did or it is gone. */
  connection: { id: string; tenantId: string; status: SsoConnectionStatus } | null;
}

/** Whose session is asked about: the token's subject and `sid` (null for a token without one). */
export interface SessionAsk {
  userId: string;
  sid: string | null;
}

/** The probe's columns, named apart from any other table's of the statement that joins them. */
export const SESSION_PROBE_COLUMNS =
  'session_k.not_before AS probe_not_before, session_s.id AS probe_session_id, ' +
  'session_s.user_id AS probe_user_id, session_s.tenant_id AS probe_tenant_id, ' +
  'session_s.last_used_at AS probe_last_used_at, session_s.expires_at AS probe_expires_at, ' +
  'session_s.idle_seconds AS probe_idle_seconds, session_s.revoked_at AS probe_revoked_at, ' +
  'session_c.id AS probe_connection_id, session_c.tenant_id AS probe_connection_tenant_id, ' +
  'session_c.status AS probe_connection_status';

/**
 * Left joins that add the probe to a statement that yields one row: each table by primary key,
 * whichever rows exist. Its parameters, in order: sessionProbeParameters(ask).
 */
export const SESSION_PROBE_JOINS =
  'LEFT JOIN session_cutoffs session_k ON session_k.user_id = ? ' +
  'LEFT JOIN sessions session_s ON session_s.id = ? ' +
  'LEFT JOIN sso_connections session_c ON session_c.id = session_s.connection_id';

export const sessionProbeParameters = (ask: SessionAsk): [string, string | null] => [ask.userId, ask.sid];

/** The probe of a row that carries SESSION_PROBE_COLUMNS. */
export function toSessionProbe(row: Row, sid: string | null): SessionProbe {
  const notBefore = row.probe_not_before;
  return {
    notBefore: notBefore === null || notBefore === undefined ? null : Number(notBefore),
    // MySQL pads trailing spaces even in a binary collation: only the exact id counts.
    session: row.probe_session_id === null || row.probe_session_id !== sid ? null : toProbedSession(row),
  };
}

function toProbedSession(row: Row): ProbedSession {
  return {
    id: String(row.probe_session_id),
    userId: String(row.probe_user_id),
    tenantId: row.probe_tenant_id === null ? null : String(row.probe_tenant_id),
    lastUsedAt: timestamp(row.probe_last_used_at),
    expiresAt: timestamp(row.probe_expires_at),
    idleSeconds: Number(row.probe_idle_seconds),
    revokedAt: row.probe_revoked_at === null ? null : timestamp(row.probe_revoked_at),
    connection:
      row.probe_connection_id === null
        ? null
        : {
            id: String(row.probe_connection_id),
            tenantId: String(row.probe_connection_tenant_id),
            status: row.probe_connection_status as SsoConnectionStatus,
          },
  };
}

-- The SQL of sessions.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- SessionsStore.insert
BEGIN IMMEDIATE;
INSERT INTO "sessions" ("id", "user_id", "tenant_id", "kind", "connection_id", "created_at", "last_used_at", "expires_at", "idle_seconds", "user_agent", "ip", "revoked_at", "revoked_reason") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- SessionsStore.probe, the person and the session in one read
SELECT session_k.not_before AS probe_not_before, session_s.id AS probe_session_id, session_s.user_id AS probe_user_id, session_s.tenant_id AS probe_tenant_id, session_s.last_used_at AS probe_last_used_at, session_s.expires_at AS probe_expires_at, session_s.idle_seconds AS probe_idle_seconds, session_s.revoked_at AS probe_revoked_at, session_c.id AS probe_connection_id, session_c.tenant_id AS probe_connection_tenant_id, session_c.status AS probe_connection_status FROM (SELECT 1 AS one) o LEFT JOIN session_cutoffs session_k ON session_k.user_id = ? LEFT JOIN sessions session_s ON session_s.id = ? LEFT JOIN sso_connections session_c ON session_c.id = session_s.connection_id;

-- SessionsStore.touch, unless written since
UPDATE sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?;

-- SessionsStore.liveOf
SELECT s.id, s.tenant_id, s.kind, s.connection_id, c.name AS connection_name, s.created_at, s.last_used_at, s.expires_at, s.idle_seconds, s.user_agent, s.ip FROM sessions s INDEXED BY IDX_sessions_user LEFT JOIN sso_connections c ON c.id = s.connection_id WHERE s.user_id = ? AND s.revoked_at IS NULL AND s.expires_at > ? ORDER BY s.created_at DESC, s.id DESC;

-- SessionsStore.liveWhere, an organisation’s
SELECT s.id, s.tenant_id, s.kind, s.connection_id, c.name AS connection_name, s.created_at, s.last_used_at, s.expires_at, s.idle_seconds, s.user_agent, s.ip, s.user_id FROM sessions s LEFT JOIN sso_connections c ON c.id = s.connection_id WHERE s.tenant_id = ? AND s.revoked_at IS NULL AND s.expires_at > ? ORDER BY s.id LIMIT 500;

-- SessionsStore.oidcConnectionOf
SELECT c.client_id, c.discovery FROM sessions s JOIN sso_connections c ON c.id = s.connection_id WHERE s.id = ? AND c.type = 'oidc';

-- SessionsStore.revoke, with its event
BEGIN IMMEDIATE;
UPDATE sessions SET revoked_at = ?, revoked_reason = ?, expires_at = CASE WHEN expires_at > ? THEN ? ELSE expires_at END WHERE id = ? AND revoked_at IS NULL;
ROLLBACK;

-- SessionsStore.setNotBefore, with its event
INSERT INTO session_cutoffs (user_id, not_before) VALUES (?, 0) ON CONFLICT (user_id) DO NOTHING;
BEGIN IMMEDIATE;
UPDATE session_cutoffs SET not_before = ? WHERE user_id = ? AND not_before < ?;
COMMIT;

-- SessionsStore.purgeEndedBefore
SELECT id FROM sessions WHERE expires_at < ? ORDER BY expires_at LIMIT 500;

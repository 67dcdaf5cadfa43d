-- The SQL of tenant-status-reader.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- TenantStatusReader.statusOf
SELECT id, status FROM tenants WHERE id = ?;

-- TenantStatusReader.gateAndSessionOf, with single sign-on’s enforcement and the session
SELECT tenants.id AS tenant_row_id, tenants.status, EXISTS (SELECT 1 FROM sso_enforcements WHERE sso_enforcements.tenant_id = tenants.id) AS sso_enforced, session_k.not_before AS probe_not_before, session_s.id AS probe_session_id, session_s.user_id AS probe_user_id, session_s.tenant_id AS probe_tenant_id, session_s.last_used_at AS probe_last_used_at, session_s.expires_at AS probe_expires_at, session_s.idle_seconds AS probe_idle_seconds, session_s.revoked_at AS probe_revoked_at, session_c.id AS probe_connection_id, session_c.tenant_id AS probe_connection_tenant_id, session_c.status AS probe_connection_status FROM (SELECT 1 AS one) o LEFT JOIN tenants ON tenants.id = ? LEFT JOIN session_cutoffs session_k ON session_k.user_id = ? LEFT JOIN sessions session_s ON session_s.id = ? LEFT JOIN sso_connections session_c ON session_c.id = session_s.connection_id;

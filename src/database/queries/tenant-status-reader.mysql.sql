-- The SQL of tenant-status-reader.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- TenantStatusReader.statusOf
SELECT id, status FROM tenants WHERE id = ?;

-- TenantStatusReader.gateOf, with single sign-on’s enforcement
SELECT id, status, EXISTS (SELECT 1 FROM sso_enforcements WHERE sso_enforcements.tenant_id = tenants.id) AS sso_enforced FROM tenants WHERE id = ?;

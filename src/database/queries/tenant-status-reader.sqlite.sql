-- The SQL of tenant-status-reader.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- TenantStatusReader.statusOf
SELECT id, status FROM tenants WHERE id = ?;

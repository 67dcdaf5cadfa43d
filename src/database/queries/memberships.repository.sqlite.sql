-- The SQL of memberships.repository.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- MembershipsRepository.join, an invitation that carries a custom role, a new users row
BEGIN IMMEDIATE;
UPDATE tenant_invitations SET status = 'accepted' WHERE id = ? AND status IN ('pending', 'expired') AND expires_at >= ? AND NOT EXISTS (SELECT 1 FROM tenants WHERE tenants.id = tenant_invitations.tenant_id AND tenants.status IN ('suspended', 'deleted'));
ROLLBACK;

-- The SQL of memberships.repository.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- MembershipsRepository.join, an invitation that carries a custom role, a new users row
BEGIN IMMEDIATE;
UPDATE tenant_invitations SET status = 'accepted' WHERE id = ? AND status IN ('pending', 'expired') AND expires_at >= ? AND NOT EXISTS (SELECT 1 FROM tenants WHERE tenants.id = tenant_invitations.tenant_id AND tenants.status IN ('suspended', 'deleted'));
ROLLBACK;

-- MembershipsRepository.join, without an invitation (SCIM’s): the caller’s rows, a new users row, a removal outweighed
BEGIN IMMEDIATE;
DELETE FROM membership_removals WHERE tenant_id = ? AND user_id = ?;
INSERT INTO "scim_users" ("id", "tenant_id", "user_id", "user_name", "user_name_key", "external_id", "email_key", "active", "role", "attributes", "created_at", "last_modified") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "users" ("id", "email", "email_key", "platform_role", "user_type", "tenant_id", "role", "created_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- MembershipsRepository.takeBack, the pool refused the account that the join made
DELETE FROM scim_users WHERE id = ? AND tenant_id = ?;
DELETE FROM audit_events WHERE id IN (?);
DELETE FROM membership_grants WHERE id = ?;

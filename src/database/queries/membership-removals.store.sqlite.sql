-- The SQL of membership-removals.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- MembershipRemovalsStore.remember, replacing an earlier removal of the membership
BEGIN IMMEDIATE;
DELETE FROM membership_removals WHERE tenant_id = ? AND user_id = ?;
INSERT INTO "membership_removals" ("tenant_id", "user_id", "email_key", "reason", "removed_at") VALUES (?, ?, ?, ?, ?);
COMMIT;

-- MembershipRemovalsStore.removedFrom, unless invited since
SELECT r.tenant_id AS tenantId FROM membership_removals r WHERE r.user_id = ? AND r.tenant_id IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) AND r.reason <> 'account_deleted' AND NOT EXISTS (SELECT 1 FROM tenant_invitations i WHERE i.tenant_id = r.tenant_id AND i.email_key = ? AND i.created_at > r.removed_at);

-- MembershipRemovalsStore.accountDeletedSince
SELECT removed_at AS removedAt FROM membership_removals WHERE tenant_id = ? AND user_id = ? AND reason = 'account_deleted' AND removed_at >= ?;

-- MembershipRemovalsStore.requestedTenants
SELECT tenant_id AS tenantId FROM join_requests WHERE user_id = ? AND status = 'pending';

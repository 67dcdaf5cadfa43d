-- The SQL of membership-grants.repository.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- MembershipGrantsRepository.pendingFor
SELECT tenant_id, role FROM membership_grants WHERE user_id = ? AND status IN ('pending', 'sending');

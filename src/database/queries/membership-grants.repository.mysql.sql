-- The SQL of membership-grants.repository.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- MembershipGrantsRepository.pendingFor
SELECT tenant_id, role FROM membership_grants WHERE user_id = ? AND status IN ('pending', 'sending');

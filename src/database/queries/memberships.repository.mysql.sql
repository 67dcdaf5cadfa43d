-- The SQL of memberships.repository.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- MembershipsRepository.join, an invitation that carries a custom role, a new users row
START TRANSACTION;
UPDATE tenant_invitations SET status = 'accepted' WHERE id = ? AND status IN ('pending', 'expired') AND expires_at >= ? AND NOT EXISTS (SELECT 1 FROM tenants WHERE tenants.id = tenant_invitations.tenant_id AND tenants.status IN ('suspended', 'deleted'));
SET @changed = ROW_COUNT();
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ? AND @changed = 1;
SET @changed = ROW_COUNT();
INSERT INTO `users` (`id`, `email`, `email_key`, `platform_role`, `user_type`, `tenant_id`, `role`, `created_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `member_roles` (`tenant_id`, `user_id`, `role_key`, `granted_at`) SELECT ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;

COMMIT;

-- MembershipsRepository.join, without an invitation (SCIM’s): the caller’s rows, a new users row, a removal outweighed
START TRANSACTION;
DELETE FROM membership_removals WHERE tenant_id = ? AND user_id = ?;
INSERT INTO `scim_users` (`id`, `tenant_id`, `user_id`, `user_name`, `user_name_key`, `external_id`, `email_key`, `active`, `role`, `attributes`, `created_at`, `last_modified`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `users` (`id`, `email`, `email_key`, `platform_role`, `user_type`, `tenant_id`, `role`, `created_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- MembershipsRepository.takeBack, the pool refused the account that the join made
DELETE FROM scim_users WHERE id = ? AND tenant_id = ?;

DELETE FROM audit_events WHERE id IN (?);

DELETE FROM membership_grants WHERE id = ?;

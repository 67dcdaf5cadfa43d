-- The SQL of scim-tokens.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- ScimTokensStore.list
SELECT id, created_at AS createdAt, last_used_at AS lastUsedAt FROM scim_tokens WHERE tenant_id = ? ORDER BY created_at, id;

-- ScimTokensStore.authenticate, and its last use noted
SELECT scim_tokens.id, scim_tokens.tenant_id AS tenantId, scim_tokens.last_used_at AS lastUsedAt, tenants.status AS tenantStatus FROM scim_tokens LEFT JOIN tenants ON tenants.id = scim_tokens.tenant_id WHERE scim_tokens.secret_hash = ?;

UPDATE scim_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?);

-- ScimTokensStore.create
START TRANSACTION;
INSERT INTO `scim_tokens` (`id`, `tenant_id`, `secret_hash`, `created_by`, `created_at`, `last_used_at`) VALUES (?, ?, ?, ?, ?, ?);
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- ScimTokensStore.revoke
START TRANSACTION;
DELETE FROM scim_tokens WHERE id = ? AND tenant_id = ?;
SET @changed = ROW_COUNT();
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

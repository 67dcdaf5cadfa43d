-- The SQL of tenants.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- TenantsStore.list, first batch
SELECT id, name, type, status, CONCAT(LEFT(DATE_FORMAT(created_at, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z') AS createdAt FROM tenants FORCE INDEX (IDX_tenants_list) WHERE status <> 'deleted' ORDER BY created_at, id LIMIT 1000;

-- TenantsStore.list, one status, after a key
SELECT id, name, type, status, CONCAT(LEFT(DATE_FORMAT(created_at, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z') AS createdAt FROM tenants FORCE INDEX (IDX_tenants_status_list) WHERE status = ? AND created_at >= ? AND (created_at > ? OR id > ?) ORDER BY created_at, id LIMIT 51;

-- TenantsStore.list, two statuses
SELECT * FROM (SELECT id, name, type, status, CONCAT(LEFT(DATE_FORMAT(created_at, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z') AS createdAt FROM tenants FORCE INDEX (IDX_tenants_status_list) WHERE status = ? ORDER BY created_at, id LIMIT 51) AS status_0 UNION ALL SELECT * FROM (SELECT id, name, type, status, CONCAT(LEFT(DATE_FORMAT(created_at, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z') AS createdAt FROM tenants FORCE INDEX (IDX_tenants_status_list) WHERE status = ? ORDER BY created_at, id LIMIT 51) AS status_1 ORDER BY createdAt, id LIMIT 51;

-- TenantsStore.create
START TRANSACTION;
INSERT INTO `tenants` (`id`, `name`, `type`, `status`, `created_at`) VALUES (?, ?, ?, ?, ?);
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- TenantsStore.activate, a pending_owner tenant at its first owner’s join
START TRANSACTION;
UPDATE tenants SET status = 'active' WHERE id = ? AND status = 'pending_owner';
SET @changed = ROW_COUNT();
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

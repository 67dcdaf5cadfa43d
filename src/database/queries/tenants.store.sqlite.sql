-- The SQL of tenants.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- TenantsStore.list, first batch
SELECT id, name, type, status, strftime('%Y-%m-%dT%H:%M:%fZ', created_at) AS createdAt FROM tenants WHERE status <> 'deleted' ORDER BY created_at, id LIMIT 1000;

-- TenantsStore.list, one status, after a key
SELECT id, name, type, status, strftime('%Y-%m-%dT%H:%M:%fZ', created_at) AS createdAt FROM tenants WHERE status = ? AND created_at >= ? AND (created_at > ? OR id > ?) ORDER BY created_at, id LIMIT 51;

-- TenantsStore.list, two statuses
SELECT * FROM (SELECT id, name, type, status, strftime('%Y-%m-%dT%H:%M:%fZ', created_at) AS createdAt FROM tenants WHERE status = ? ORDER BY created_at, id LIMIT 51) AS status_0 UNION ALL SELECT * FROM (SELECT id, name, type, status, strftime('%Y-%m-%dT%H:%M:%fZ', created_at) AS createdAt FROM tenants WHERE status = ? ORDER BY created_at, id LIMIT 51) AS status_1 ORDER BY createdAt, id LIMIT 51;

-- TenantsStore.create
BEGIN IMMEDIATE;
INSERT INTO "tenants" ("id", "name", "type", "status", "created_at") VALUES (?, ?, ?, ?, ?);
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- TenantsStore.activate, a pending_owner tenant at its first owner’s join
BEGIN IMMEDIATE;
UPDATE tenants SET status = 'active' WHERE id = ? AND status = 'pending_owner';
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- The SQL of scim-role-mappings.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- ScimRoleMappingsStore.mapping
SELECT group_key AS groupKey, group_name AS groupName, role FROM scim_role_mappings WHERE tenant_id = ?;
SELECT group_key AS groupKey, role_key AS roleKey FROM scim_role_mapping_roles WHERE tenant_id = ? ORDER BY group_key, role_key;

-- ScimRoleMappingsStore.groupKeysOf
SELECT m.scim_user_id AS userId, g.display_name_key AS groupKey FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id WHERE m.tenant_id = ? AND m.scim_user_id IN (?, ?);

-- ScimRoleMappingsStore.replace
BEGIN IMMEDIATE;
DELETE FROM scim_role_mapping_roles WHERE tenant_id = ?;
DELETE FROM scim_role_mappings WHERE tenant_id = ?;
INSERT INTO "scim_role_mappings" ("tenant_id", "group_key", "group_name", "role") VALUES (?, ?, ?, ?);
INSERT INTO "scim_role_mapping_roles" ("tenant_id", "group_key", "role_key") VALUES (?, ?, ?);
INSERT INTO "scim_role_mapping_roles" ("tenant_id", "group_key", "role_key") VALUES (?, ?, ?);
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- The SQL of scim-groups.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- ScimGroupsStore.find
SELECT id, tenant_id AS tenantId, display_name AS displayName, display_name_key AS displayNameKey, external_id AS externalId, created_at AS createdAt, last_modified AS lastModified FROM scim_groups WHERE id = ? AND tenant_id = ?;

-- ScimGroupsStore.findByName
SELECT id, tenant_id AS tenantId, display_name AS displayName, display_name_key AS displayNameKey, external_id AS externalId, created_at AS createdAt, last_modified AS lastModified FROM scim_groups WHERE tenant_id = ? AND display_name_key = ?;

-- ScimGroupsStore.memberIds
SELECT scim_user_id AS id FROM scim_group_members WHERE group_id = ? AND tenant_id = ?;

-- ScimGroupsStore.list, a filter, a page
SELECT COUNT(*) AS total FROM scim_groups WHERE tenant_id = ? AND display_name_key = ?;
SELECT id, tenant_id AS tenantId, display_name AS displayName, display_name_key AS displayNameKey, external_id AS externalId, created_at AS createdAt, last_modified AS lastModified FROM scim_groups WHERE tenant_id = ? AND display_name_key = ? ORDER BY created_at, id LIMIT 10 OFFSET 0;

-- ScimGroupsStore.list, the count alone
SELECT COUNT(*) AS total FROM scim_groups WHERE tenant_id = ?;

-- ScimGroupsStore.create, with a member
BEGIN IMMEDIATE;
INSERT INTO "scim_groups" ("id", "tenant_id", "display_name", "display_name_key", "external_id", "created_at", "last_modified") VALUES (?, ?, ?, ?, ?, ?, ?);
INSERT INTO "scim_group_members" ("group_id", "scim_user_id", "tenant_id") VALUES (?, ?, ?);
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- ScimGroupsStore.update, a member gained and one lost
BEGIN IMMEDIATE;
UPDATE scim_groups SET display_name = ?, display_name_key = ?, external_id = ?, last_modified = ? WHERE id = ? AND tenant_id = ?;
DELETE FROM scim_group_members WHERE scim_user_id IN (?) AND group_id = ? AND tenant_id = ?;
INSERT INTO "scim_group_members" ("group_id", "scim_user_id", "tenant_id") VALUES (?, ?, ?);
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- ScimGroupsStore.delete
BEGIN IMMEDIATE;
DELETE FROM scim_groups WHERE id = ? AND tenant_id = ?;
DELETE FROM scim_group_members WHERE group_id = ? AND tenant_id = ?;
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

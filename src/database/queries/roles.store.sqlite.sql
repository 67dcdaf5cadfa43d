-- The SQL of roles.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- RolesStore.create
BEGIN IMMEDIATE;
SELECT 1 AS reached FROM (SELECT COUNT(*) AS defined FROM org_roles WHERE tenant_id = ?) counted WHERE defined >= ?;
INSERT INTO "org_roles" ("tenant_id", "role_key", "name", "description", "version", "created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?, ?);
INSERT INTO "org_role_permissions" ("tenant_id", "role_key", "permission") VALUES (?, ?, ?);
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- RolesStore.update
BEGIN IMMEDIATE;
UPDATE org_roles SET name = ?, description = ?, updated_at = ?, version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
DELETE FROM org_role_permissions WHERE tenant_id = ? AND role_key = ?;
INSERT INTO "org_role_permissions" ("tenant_id", "role_key", "permission") VALUES (?, ?, ?);
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- RolesStore.countHolders
SELECT COUNT(*) AS holders FROM member_roles WHERE tenant_id = ? AND role_key = ?;

-- RolesStore.holders
SELECT user_id AS userId FROM member_roles WHERE tenant_id = ? AND role_key = ? ORDER BY user_id;

-- RolesStore.invitationsCarrying
SELECT invitation_id AS invitationId FROM invitation_roles WHERE tenant_id = ? AND role_key = ?;

-- RolesStore.replaceMemberRoles
BEGIN IMMEDIATE;
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
DELETE FROM member_roles WHERE tenant_id = ? AND user_id = ?;
INSERT INTO "member_roles" ("tenant_id", "user_id", "role_key", "granted_at") VALUES (?, ?, ?, ?);
INSERT INTO "audit_events" ("id", "type", "occurred_at", "tenant_id", "actor_id", "actor_email", "target_type", "target_id", "target_email", "data") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO "webhook_deliveries" ("id", "status", "attempts", "next_attempt_at", "claimed_by", "claimed_until", "last_error", "created_at", "event_id", "url", "payload", "delivered_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- RolesStore.rolesCarrying
SELECT tenant_id AS tenantId, role_key AS roleKey, permission FROM org_role_permissions WHERE permission IN (?, ?) ORDER BY tenant_id, role_key, permission;

-- RolesStore.replaceCatalogue, a permission removed from the roles that carried it
BEGIN IMMEDIATE;
DELETE FROM product_permissions WHERE permission_key IN (?);
DELETE FROM org_role_permissions WHERE permission IN (?);
UPDATE org_roles SET updated_at = ?, version = version + 1 WHERE tenant_id = ? AND role_key = ?;
UPDATE product_permissions SET description = ? WHERE permission_key = ?;
INSERT INTO "product_permissions" ("permission_key", "description", "created_at") VALUES (?, ?, ?);
COMMIT;

-- RolesStore.groupsMappedTo
SELECT group_key AS groupKey FROM scim_role_mapping_roles WHERE tenant_id = ? AND role_key = ?;

-- RolesStore.domainsGiving
SELECT domain_id AS domainId FROM org_domain_roles WHERE tenant_id = ? AND role_key = ?;

-- RolesStore.delete
BEGIN IMMEDIATE;
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
DELETE FROM org_role_permissions WHERE tenant_id = ? AND role_key = ?;
DELETE FROM member_roles WHERE tenant_id = ? AND role_key = ?;
DELETE FROM invitation_roles WHERE tenant_id = ? AND role_key = ?;
DELETE FROM scim_role_mapping_roles WHERE tenant_id = ? AND role_key = ?;
DELETE FROM org_domain_roles WHERE tenant_id = ? AND role_key = ?;
DELETE FROM org_roles WHERE tenant_id = ? AND role_key = ?;
COMMIT;

-- RolesStore.delete, its holders reassigned
BEGIN IMMEDIATE;
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
DELETE FROM org_role_permissions WHERE tenant_id = ? AND role_key = ?;
DELETE FROM member_roles WHERE tenant_id = ? AND role_key = ?;
DELETE FROM invitation_roles WHERE tenant_id = ? AND role_key = ?;
DELETE FROM scim_role_mapping_roles WHERE tenant_id = ? AND role_key = ?;
DELETE FROM org_domain_roles WHERE tenant_id = ? AND role_key = ?;
DELETE FROM org_roles WHERE tenant_id = ? AND role_key = ?;
INSERT INTO "member_roles" ("tenant_id", "user_id", "role_key", "granted_at") VALUES (?, ?, ?, ?);
INSERT INTO "invitation_roles" ("invitation_id", "role_key", "tenant_id") VALUES (?, ?, ?);
INSERT INTO "scim_role_mapping_roles" ("tenant_id", "group_key", "role_key") VALUES (?, ?, ?);
INSERT INTO "org_domain_roles" ("domain_id", "role_key", "tenant_id") VALUES (?, ?, ?);
COMMIT;

-- The SQL of roles.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- RolesStore.create
START TRANSACTION;
SET @changed = NOT EXISTS (SELECT 1 AS reached FROM (SELECT COUNT(*) AS defined FROM org_roles WHERE tenant_id = ?) counted WHERE defined >= ?);
INSERT INTO `org_roles` (`tenant_id`, `role_key`, `name`, `description`, `version`, `created_at`, `updated_at`) SELECT ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `org_role_permissions` (`tenant_id`, `role_key`, `permission`) SELECT ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- RolesStore.update
START TRANSACTION;
UPDATE org_roles SET name = ?, description = ?, updated_at = ?, version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
SET @changed = ROW_COUNT();
DELETE FROM org_role_permissions WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
INSERT INTO `org_role_permissions` (`tenant_id`, `role_key`, `permission`) SELECT ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- RolesStore.countHolders
SELECT COUNT(*) AS holders FROM member_roles WHERE tenant_id = ? AND role_key = ?;

-- RolesStore.holders
SELECT user_id AS userId FROM member_roles WHERE tenant_id = ? AND role_key = ? ORDER BY user_id;

-- RolesStore.invitationsCarrying
SELECT invitation_id AS invitationId FROM invitation_roles WHERE tenant_id = ? AND role_key = ?;

-- RolesStore.replaceMemberRoles
START TRANSACTION;
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
SET @changed = ROW_COUNT();
DELETE FROM member_roles WHERE tenant_id = ? AND user_id = ? AND @changed = 1;
INSERT INTO `member_roles` (`tenant_id`, `user_id`, `role_key`, `granted_at`) SELECT ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- RolesStore.rolesCarrying
SELECT tenant_id AS tenantId, role_key AS roleKey, permission FROM org_role_permissions WHERE permission IN (?, ?) ORDER BY tenant_id, role_key, permission;

-- RolesStore.replaceCatalogue, a permission removed from the roles that carried it
START TRANSACTION;
DELETE FROM product_permissions WHERE permission_key IN (?);
DELETE FROM org_role_permissions WHERE permission IN (?);
UPDATE org_roles SET updated_at = ?, version = version + 1 WHERE tenant_id = ? AND role_key = ?;
UPDATE product_permissions SET description = ? WHERE permission_key = ?;
INSERT INTO `product_permissions` (`permission_key`, `description`, `created_at`) VALUES (?, ?, ?);
COMMIT;

-- RolesStore.groupsMappedTo
SELECT group_key AS groupKey FROM scim_role_mapping_roles WHERE tenant_id = ? AND role_key = ?;

-- RolesStore.domainsGiving
SELECT domain_id AS domainId FROM org_domain_roles WHERE tenant_id = ? AND role_key = ?;

-- RolesStore.delete
START TRANSACTION;
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
SET @changed = ROW_COUNT();
DELETE FROM org_role_permissions WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM member_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM invitation_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM scim_role_mapping_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM org_domain_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM org_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
COMMIT;

-- RolesStore.delete, its holders reassigned
START TRANSACTION;
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
SET @changed = ROW_COUNT();
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ? AND @changed = 1;
SET @changed = ROW_COUNT();
DELETE FROM org_role_permissions WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM member_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM invitation_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM scim_role_mapping_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM org_domain_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
DELETE FROM org_roles WHERE tenant_id = ? AND role_key = ? AND @changed = 1;
INSERT INTO `member_roles` (`tenant_id`, `user_id`, `role_key`, `granted_at`) SELECT ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `invitation_roles` (`invitation_id`, `role_key`, `tenant_id`) SELECT ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `scim_role_mapping_roles` (`tenant_id`, `group_key`, `role_key`) SELECT ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `org_domain_roles` (`domain_id`, `role_key`, `tenant_id`) SELECT ?, ?, ? FROM DUAL WHERE @changed = 1;

COMMIT;

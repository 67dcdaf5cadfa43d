-- The SQL of scim-users.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- ScimUsersStore.find
SELECT id, tenant_id AS tenantId, user_id AS userId, user_name AS userName, user_name_key AS userNameKey, external_id AS externalId, email_key AS emailKey, active, role, attributes, created_at AS createdAt, last_modified AS lastModified FROM scim_users WHERE id = ? AND tenant_id = ?;

-- ScimUsersStore.findByUserName
SELECT id, tenant_id AS tenantId, user_id AS userId, user_name AS userName, user_name_key AS userNameKey, external_id AS externalId, email_key AS emailKey, active, role, attributes, created_at AS createdAt, last_modified AS lastModified FROM scim_users WHERE tenant_id = ? AND user_name_key = ?;

-- ScimUsersStore.findByPerson
SELECT id, tenant_id AS tenantId, user_id AS userId, user_name AS userName, user_name_key AS userNameKey, external_id AS externalId, email_key AS emailKey, active, role, attributes, created_at AS createdAt, last_modified AS lastModified FROM scim_users WHERE user_id = ?;

-- ScimUsersStore.list, a filter, a page
SELECT COUNT(*) AS total FROM scim_users WHERE tenant_id = ? AND user_name_key = ?;

SELECT id, tenant_id AS tenantId, user_id AS userId, user_name AS userName, user_name_key AS userNameKey, external_id AS externalId, email_key AS emailKey, active, role, attributes, created_at AS createdAt, last_modified AS lastModified FROM scim_users WHERE tenant_id = ? AND user_name_key = ? ORDER BY created_at, id LIMIT 10 OFFSET 0;

-- ScimUsersStore.findMany
SELECT id, tenant_id AS tenantId, user_id AS userId, user_name AS userName, user_name_key AS userNameKey, external_id AS externalId, email_key AS emailKey, active, role, attributes, created_at AS createdAt, last_modified AS lastModified FROM scim_users WHERE tenant_id = ? AND id IN (?, ?);

-- ScimUsersStore.allActive
SELECT id, tenant_id AS tenantId, user_id AS userId, user_name AS userName, user_name_key AS userNameKey, external_id AS externalId, email_key AS emailKey, active, role, attributes, created_at AS createdAt, last_modified AS lastModified FROM scim_users WHERE tenant_id = ? AND active = 1;

-- ScimUsersStore.updateAsRead, the user pool’s address change
UPDATE scim_users SET user_name = ?, user_name_key = ?, external_id = ?, email_key = ?, active = ?, role = ?, attributes = ?, last_modified = ? WHERE id = ? AND tenant_id = ? AND last_modified = ?;

-- ScimUsersStore.saveChanges, a change that moves no membership
START TRANSACTION;
UPDATE scim_users SET user_name = ?, user_name_key = ?, external_id = ?, email_key = ?, active = ?, role = ?, attributes = ?, last_modified = ? WHERE id = ? AND tenant_id = ?;
SET @changed = ROW_COUNT();
COMMIT;

-- ScimUsersStore.commit, an inactive person’s rows beside a removal
START TRANSACTION;
DELETE FROM membership_removals WHERE tenant_id = ? AND user_id = ?;
INSERT INTO `scim_users` (`id`, `tenant_id`, `user_id`, `user_name`, `user_name_key`, `external_id`, `email_key`, `active`, `role`, `attributes`, `created_at`, `last_modified`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

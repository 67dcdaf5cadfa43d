-- The SQL of local-identity-store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- LocalIdentityStore.findById
SELECT id, email, platform_role AS platformRole, user_type AS userType, tenant_id AS tenantId, role FROM users WHERE id = ?;

-- LocalIdentityStore.usersOfTenant
SELECT `UserEntity`.`id` AS `UserEntity_id`, `UserEntity`.`email` AS `UserEntity_email`, `UserEntity`.`email_key` AS `UserEntity_email_key`, `UserEntity`.`platform_role` AS `UserEntity_platform_role`, `UserEntity`.`user_type` AS `UserEntity_user_type`, `UserEntity`.`tenant_id` AS `UserEntity_tenant_id`, `UserEntity`.`role` AS `UserEntity_role`, `UserEntity`.`created_at` AS `UserEntity_created_at` FROM `users` `UserEntity` WHERE ((`UserEntity`.`tenant_id` = ?)) ORDER BY `UserEntity`.`id` ASC;

-- LocalIdentityStore.insertUser
INSERT INTO `users`(`id`, `email`, `email_key`, `platform_role`, `user_type`, `tenant_id`, `role`, `created_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- LocalIdentityStore.findOrgCaller, the person, the tenant gate and the session in one read
SELECT users.id, users.email, users.platform_role AS platformRole, users.user_type AS userType, users.tenant_id AS tenantId, users.role, tenants.id AS tenantRowId, tenants.status AS tenantStatus, EXISTS (SELECT 1 FROM sso_enforcements WHERE sso_enforcements.tenant_id = tenants.id) AS tenantSsoEnforced, session_k.not_before AS probe_not_before, session_s.id AS probe_session_id, session_s.user_id AS probe_user_id, session_s.tenant_id AS probe_tenant_id, session_s.last_used_at AS probe_last_used_at, session_s.expires_at AS probe_expires_at, session_s.idle_seconds AS probe_idle_seconds, session_s.revoked_at AS probe_revoked_at, session_c.id AS probe_connection_id, session_c.tenant_id AS probe_connection_tenant_id, session_c.status AS probe_connection_status FROM (SELECT 1 AS one) o LEFT JOIN users ON users.id = ? LEFT JOIN tenants ON tenants.id = ? LEFT JOIN session_cutoffs session_k ON session_k.user_id = ? LEFT JOIN sessions session_s ON session_s.id = ? LEFT JOIN sso_connections session_c ON session_c.id = session_s.connection_id;

-- LocalIdentityStore.findByEmail
SELECT `UserEntity`.`id` AS `UserEntity_id`, `UserEntity`.`email` AS `UserEntity_email`, `UserEntity`.`email_key` AS `UserEntity_email_key`, `UserEntity`.`platform_role` AS `UserEntity_platform_role`, `UserEntity`.`user_type` AS `UserEntity_user_type`, `UserEntity`.`tenant_id` AS `UserEntity_tenant_id`, `UserEntity`.`role` AS `UserEntity_role`, `UserEntity`.`created_at` AS `UserEntity_created_at` FROM `users` `UserEntity` WHERE ((((`UserEntity`.`email_key` = ?))) OR (((`UserEntity`.`email_key` IS NULL) AND (`UserEntity`.`email` = ?)))) ORDER BY `UserEntity`.`id` ASC;

-- LocalIdentityStore.findTenantMemberByEmail
SELECT id, email, platform_role AS platformRole, user_type AS userType, tenant_id AS tenantId, role FROM users WHERE tenant_id = ? AND email_key = ? UNION SELECT id, email, platform_role AS platformRole, user_type AS userType, tenant_id AS tenantId, role FROM users WHERE tenant_id = ? AND email = ? ORDER BY id;

-- LocalIdentityStore.listSuperAdmins, first page
SELECT `UserEntity`.`id` AS `UserEntity_id`, `UserEntity`.`email` AS `UserEntity_email`, `UserEntity`.`email_key` AS `UserEntity_email_key`, `UserEntity`.`platform_role` AS `UserEntity_platform_role`, `UserEntity`.`user_type` AS `UserEntity_user_type`, `UserEntity`.`tenant_id` AS `UserEntity_tenant_id`, `UserEntity`.`role` AS `UserEntity_role`, `UserEntity`.`created_at` AS `UserEntity_created_at` FROM `users` `UserEntity` WHERE ((`UserEntity`.`platform_role` = ?)) ORDER BY `UserEntity`.`id` ASC LIMIT 51;

-- LocalIdentityStore.listSuperAdmins, after a token
SELECT `UserEntity`.`id` AS `UserEntity_id`, `UserEntity`.`email` AS `UserEntity_email`, `UserEntity`.`email_key` AS `UserEntity_email_key`, `UserEntity`.`platform_role` AS `UserEntity_platform_role`, `UserEntity`.`user_type` AS `UserEntity_user_type`, `UserEntity`.`tenant_id` AS `UserEntity_tenant_id`, `UserEntity`.`role` AS `UserEntity_role`, `UserEntity`.`created_at` AS `UserEntity_created_at` FROM `users` `UserEntity` WHERE ((`UserEntity`.`platform_role` = ?) AND (`UserEntity`.`id` > ?)) ORDER BY `UserEntity`.`id` ASC LIMIT 51;

-- LocalIdentityStore.listTenantMembers, first page
SELECT `user`.`id` AS `user_id`, `user`.`email` AS `user_email`, `user`.`email_key` AS `user_email_key`, `user`.`platform_role` AS `user_platform_role`, `user`.`user_type` AS `user_user_type`, `user`.`tenant_id` AS `user_tenant_id`, `user`.`role` AS `user_role`, `user`.`created_at` AS `user_created_at` FROM `users` `user` FORCE INDEX (`IDX_users_tenant_email_order`) WHERE `user`.`tenant_id` = ? ORDER BY user.email_order ASC, `user`.`id` ASC LIMIT 51;

-- LocalIdentityStore.listTenantMembers, after a cursor
SELECT `user`.`id` AS `user_id`, `user`.`email` AS `user_email`, `user`.`email_key` AS `user_email_key`, `user`.`platform_role` AS `user_platform_role`, `user`.`user_type` AS `user_user_type`, `user`.`tenant_id` AS `user_tenant_id`, `user`.`role` AS `user_role`, `user`.`created_at` AS `user_created_at` FROM `users` `user` FORCE INDEX (`IDX_users_tenant_email_order`) WHERE `user`.`tenant_id` = ? AND user.email_order >= ? AND (user.email_order > ? OR `user`.`id` > ?) ORDER BY user.email_order ASC, `user`.`id` ASC LIMIT 51;

-- LocalIdentityStore.grantSuperAdmin
UPDATE `users` SET `platform_role` = ? WHERE `id` = ?;

-- LocalIdentityStore.setTenantRole
UPDATE `users` SET `role` = ? WHERE `id` = ?;

-- LocalIdentityStore.removeFromTenant
UPDATE `users` SET `tenant_id` = ?, `role` = ? WHERE `id` = ?;

-- LocalIdentityStore.deleteUser
DELETE FROM `users` WHERE `id` = ?;

-- LocalIdentityStore.ping
SELECT 1;

-- The SQL of local-identity-store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- LocalIdentityStore.findById
SELECT id, email, platform_role AS platformRole, user_type AS userType, tenant_id AS tenantId, role FROM users WHERE id = ?;

-- LocalIdentityStore.usersOfTenant
SELECT "UserEntity"."id" AS "UserEntity_id", "UserEntity"."email" AS "UserEntity_email", "UserEntity"."email_key" AS "UserEntity_email_key", "UserEntity"."platform_role" AS "UserEntity_platform_role", "UserEntity"."user_type" AS "UserEntity_user_type", "UserEntity"."tenant_id" AS "UserEntity_tenant_id", "UserEntity"."role" AS "UserEntity_role", "UserEntity"."created_at" AS "UserEntity_created_at" FROM "users" "UserEntity" WHERE (("UserEntity"."tenant_id" = ?)) ORDER BY "UserEntity"."id" ASC;

-- LocalIdentityStore.insertUser
INSERT INTO "users"("id", "email", "email_key", "platform_role", "user_type", "tenant_id", "role", "created_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- LocalIdentityStore.findWithTenantStatus
SELECT id, email, platform_role AS platformRole, user_type AS userType, tenant_id AS tenantId, role, tenantRowId, tenantStatus, tenantSsoEnforced FROM users LEFT JOIN (SELECT id AS tenantRowId, status AS tenantStatus, EXISTS (SELECT 1 FROM sso_enforcements WHERE sso_enforcements.tenant_id = tenants.id) AS tenantSsoEnforced FROM tenants WHERE id = ?) tenant ON 1 = 1 WHERE id = ?;

-- LocalIdentityStore.findByEmail
SELECT "UserEntity"."id" AS "UserEntity_id", "UserEntity"."email" AS "UserEntity_email", "UserEntity"."email_key" AS "UserEntity_email_key", "UserEntity"."platform_role" AS "UserEntity_platform_role", "UserEntity"."user_type" AS "UserEntity_user_type", "UserEntity"."tenant_id" AS "UserEntity_tenant_id", "UserEntity"."role" AS "UserEntity_role", "UserEntity"."created_at" AS "UserEntity_created_at" FROM "users" "UserEntity" WHERE (((("UserEntity"."email_key" = ?))) OR ((("UserEntity"."email_key" IS NULL) AND ("UserEntity"."email" = ?)))) ORDER BY "UserEntity"."id" ASC;

-- LocalIdentityStore.findTenantMemberByEmail
SELECT id, email, platform_role AS platformRole, user_type AS userType, tenant_id AS tenantId, role FROM users WHERE tenant_id = ? AND email_key = ? UNION SELECT id, email, platform_role AS platformRole, user_type AS userType, tenant_id AS tenantId, role FROM users WHERE tenant_id = ? AND email = ? ORDER BY id;

-- LocalIdentityStore.listSuperAdmins, first page
SELECT "UserEntity"."id" AS "UserEntity_id", "UserEntity"."email" AS "UserEntity_email", "UserEntity"."email_key" AS "UserEntity_email_key", "UserEntity"."platform_role" AS "UserEntity_platform_role", "UserEntity"."user_type" AS "UserEntity_user_type", "UserEntity"."tenant_id" AS "UserEntity_tenant_id", "UserEntity"."role" AS "UserEntity_role", "UserEntity"."created_at" AS "UserEntity_created_at" FROM "users" "UserEntity" WHERE (("UserEntity"."platform_role" = ?)) ORDER BY "UserEntity"."id" ASC LIMIT 51;

-- LocalIdentityStore.listSuperAdmins, after a token
SELECT "UserEntity"."id" AS "UserEntity_id", "UserEntity"."email" AS "UserEntity_email", "UserEntity"."email_key" AS "UserEntity_email_key", "UserEntity"."platform_role" AS "UserEntity_platform_role", "UserEntity"."user_type" AS "UserEntity_user_type", "UserEntity"."tenant_id" AS "UserEntity_tenant_id", "UserEntity"."role" AS "UserEntity_role", "UserEntity"."created_at" AS "UserEntity_created_at" FROM "users" "UserEntity" WHERE (("UserEntity"."platform_role" = ?) AND ("UserEntity"."id" > ?)) ORDER BY "UserEntity"."id" ASC LIMIT 51;

-- LocalIdentityStore.listTenantMembers, first page
SELECT "user"."id" AS "user_id", "user"."email" AS "user_email", "user"."email_key" AS "user_email_key", "user"."platform_role" AS "user_platform_role", "user"."user_type" AS "user_user_type", "user"."tenant_id" AS "user_tenant_id", "user"."role" AS "user_role", "user"."created_at" AS "user_created_at" FROM "users" "user" WHERE "user"."tenant_id" = ? ORDER BY "user"."email" COLLATE BINARY ASC, "user"."id" ASC LIMIT 51;

-- LocalIdentityStore.listTenantMembers, after a cursor
SELECT "user"."id" AS "user_id", "user"."email" AS "user_email", "user"."email_key" AS "user_email_key", "user"."platform_role" AS "user_platform_role", "user"."user_type" AS "user_user_type", "user"."tenant_id" AS "user_tenant_id", "user"."role" AS "user_role", "user"."created_at" AS "user_created_at" FROM "users" "user" WHERE "user"."tenant_id" = ? AND "user"."email" COLLATE BINARY >= ? AND ("user"."email" COLLATE BINARY > ? OR "user"."id" > ?) ORDER BY "user"."email" COLLATE BINARY ASC, "user"."id" ASC LIMIT 51;

-- LocalIdentityStore.grantSuperAdmin
UPDATE "users" SET "platform_role" = ? WHERE "id" = ?;

-- LocalIdentityStore.setTenantRole
UPDATE "users" SET "role" = ? WHERE "id" = ?;

-- LocalIdentityStore.removeFromTenant
UPDATE "users" SET "tenant_id" = ?, "role" = ? WHERE "id" = ?;

-- LocalIdentityStore.deleteUser
DELETE FROM "users" WHERE "id" = ?;

-- LocalIdentityStore.ping
SELECT 1;

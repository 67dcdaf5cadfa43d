-- The SQL of grants.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- GrantsStore.grantOf
SELECT tenants.id AS tenantRowId, tenants.status AS tenantStatus, member_roles.role_key AS roleKey, org_role_permissions.permission AS granted FROM tenants LEFT JOIN member_roles ON member_roles.tenant_id = tenants.id AND member_roles.user_id = ? LEFT JOIN org_role_permissions ON org_role_permissions.tenant_id = member_roles.tenant_id AND org_role_permissions.role_key = member_roles.role_key AND org_role_permissions.permission = ? WHERE tenants.id = ?;

-- GrantsStore.heldBy
SELECT tenants.id AS tenantRowId, tenants.name AS tenantName, tenants.status AS tenantStatus, member_roles.role_key AS roleKey, org_role_permissions.permission AS permission FROM tenants LEFT JOIN member_roles ON member_roles.tenant_id = tenants.id AND member_roles.user_id = ? LEFT JOIN org_role_permissions ON org_role_permissions.tenant_id = member_roles.tenant_id AND org_role_permissions.role_key = member_roles.role_key WHERE tenants.id = ?;

-- GrantsStore.rolesOfMembers
SELECT user_id AS userId, role_key AS roleKey FROM member_roles WHERE tenant_id = ? AND user_id IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- GrantsStore.rolesOfInvitations
SELECT invitation_id AS invitationId, role_key AS roleKey FROM invitation_roles WHERE invitation_id IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- GrantsStore.roles
SELECT org_roles.role_key AS roleKey, org_roles.name AS name, org_roles.description AS description, org_roles.version AS version, org_roles.created_at AS createdAt, org_roles.updated_at AS updatedAt, org_role_permissions.permission AS permission FROM org_roles LEFT JOIN org_role_permissions ON org_role_permissions.tenant_id = org_roles.tenant_id AND org_role_permissions.role_key = org_roles.role_key WHERE org_roles.tenant_id = ? ORDER BY org_roles.role_key, org_role_permissions.permission;

-- GrantsStore.productPermissions
SELECT permission_key AS permissionKey, description FROM product_permissions ORDER BY permission_key;

-- GrantsStore.removeMember
SELECT role_key AS roleKey FROM member_roles WHERE tenant_id = ? AND user_id = ?;
DELETE FROM member_roles WHERE tenant_id = ? AND user_id = ?;

-- GrantsStore.removeTenantStep, the holders
SELECT DISTINCT user_id AS userId FROM member_roles WHERE tenant_id = ? LIMIT 500;
DELETE FROM member_roles WHERE tenant_id = ? AND user_id IN (?, ?);

-- GrantsStore.removeTenantStep, the invitations
SELECT DISTINCT user_id AS userId FROM member_roles WHERE tenant_id = ? LIMIT 500;
SELECT DISTINCT invitation_id AS invitationId FROM invitation_roles WHERE tenant_id = ? LIMIT 500;
DELETE FROM invitation_roles WHERE invitation_id IN (?, ?);

-- GrantsStore.removeTenantStep, the roles
SELECT DISTINCT user_id AS userId FROM member_roles WHERE tenant_id = ? LIMIT 500;
SELECT DISTINCT invitation_id AS invitationId FROM invitation_roles WHERE tenant_id = ? LIMIT 500;
DELETE FROM org_role_permissions WHERE tenant_id = ?;
DELETE FROM org_roles WHERE tenant_id = ?;

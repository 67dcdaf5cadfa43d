-- The SQL of sso-connections.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- SsoConnectionsStore.findById
SELECT `SsoConnectionEntity`.`id` AS `SsoConnectionEntity_id`, `SsoConnectionEntity`.`tenant_id` AS `SsoConnectionEntity_tenant_id`, `SsoConnectionEntity`.`type` AS `SsoConnectionEntity_type`, `SsoConnectionEntity`.`name` AS `SsoConnectionEntity_name`, `SsoConnectionEntity`.`status` AS `SsoConnectionEntity_status`, `SsoConnectionEntity`.`jit` AS `SsoConnectionEntity_jit`, `SsoConnectionEntity`.`default_role` AS `SsoConnectionEntity_default_role`, `SsoConnectionEntity`.`allow_idp_initiated` AS `SsoConnectionEntity_allow_idp_initiated`, `SsoConnectionEntity`.`issuer` AS `SsoConnectionEntity_issuer`, `SsoConnectionEntity`.`client_id` AS `SsoConnectionEntity_client_id`, `SsoConnectionEntity`.`client_secret` AS `SsoConnectionEntity_client_secret`, `SsoConnectionEntity`.`scopes` AS `SsoConnectionEntity_scopes`, `SsoConnectionEntity`.`token_endpoint_auth_method` AS `SsoConnectionEntity_token_endpoint_auth_method`, `SsoConnectionEntity`.`discovery` AS `SsoConnectionEntity_discovery`, `SsoConnectionEntity`.`metadata_url` AS `SsoConnectionEntity_metadata_url`, `SsoConnectionEntity`.`want_assertions_signed` AS `SsoConnectionEntity_want_assertions_signed`, `SsoConnectionEntity`.`expiry_warned_for` AS `SsoConnectionEntity_expiry_warned_for`, `SsoConnectionEntity`.`discovered_at` AS `SsoConnectionEntity_discovered_at`, `SsoConnectionEntity`.`activated_at` AS `SsoConnectionEntity_activated_at`, `SsoConnectionEntity`.`primary_at` AS `SsoConnectionEntity_primary_at`, `SsoConnectionEntity`.`created_at` AS `SsoConnectionEntity_created_at`, `SsoConnectionEntity`.`updated_at` AS `SsoConnectionEntity_updated_at` FROM `sso_connections` `SsoConnectionEntity` WHERE ((`SsoConnectionEntity`.`id` = ?)) LIMIT 1;

-- SsoConnectionsStore.findOwn
SELECT `SsoConnectionEntity`.`id` AS `SsoConnectionEntity_id`, `SsoConnectionEntity`.`tenant_id` AS `SsoConnectionEntity_tenant_id`, `SsoConnectionEntity`.`type` AS `SsoConnectionEntity_type`, `SsoConnectionEntity`.`name` AS `SsoConnectionEntity_name`, `SsoConnectionEntity`.`status` AS `SsoConnectionEntity_status`, `SsoConnectionEntity`.`jit` AS `SsoConnectionEntity_jit`, `SsoConnectionEntity`.`default_role` AS `SsoConnectionEntity_default_role`, `SsoConnectionEntity`.`allow_idp_initiated` AS `SsoConnectionEntity_allow_idp_initiated`, `SsoConnectionEntity`.`issuer` AS `SsoConnectionEntity_issuer`, `SsoConnectionEntity`.`client_id` AS `SsoConnectionEntity_client_id`, `SsoConnectionEntity`.`client_secret` AS `SsoConnectionEntity_client_secret`, `SsoConnectionEntity`.`scopes` AS `SsoConnectionEntity_scopes`, `SsoConnectionEntity`.`token_endpoint_auth_method` AS `SsoConnectionEntity_token_endpoint_auth_method`, `SsoConnectionEntity`.`discovery` AS `SsoConnectionEntity_discovery`, `SsoConnectionEntity`.`metadata_url` AS `SsoConnectionEntity_metadata_url`, `SsoConnectionEntity`.`want_assertions_signed` AS `SsoConnectionEntity_want_assertions_signed`, `SsoConnectionEntity`.`expiry_warned_for` AS `SsoConnectionEntity_expiry_warned_for`, `SsoConnectionEntity`.`discovered_at` AS `SsoConnectionEntity_discovered_at`, `SsoConnectionEntity`.`activated_at` AS `SsoConnectionEntity_activated_at`, `SsoConnectionEntity`.`primary_at` AS `SsoConnectionEntity_primary_at`, `SsoConnectionEntity`.`created_at` AS `SsoConnectionEntity_created_at`, `SsoConnectionEntity`.`updated_at` AS `SsoConnectionEntity_updated_at` FROM `sso_connections` `SsoConnectionEntity` WHERE ((`SsoConnectionEntity`.`tenant_id` = ?) AND (`SsoConnectionEntity`.`id` = ?)) LIMIT 1;

-- SsoConnectionsStore.listOwn
SELECT `SsoConnectionEntity`.`id` AS `SsoConnectionEntity_id`, `SsoConnectionEntity`.`tenant_id` AS `SsoConnectionEntity_tenant_id`, `SsoConnectionEntity`.`type` AS `SsoConnectionEntity_type`, `SsoConnectionEntity`.`name` AS `SsoConnectionEntity_name`, `SsoConnectionEntity`.`status` AS `SsoConnectionEntity_status`, `SsoConnectionEntity`.`jit` AS `SsoConnectionEntity_jit`, `SsoConnectionEntity`.`default_role` AS `SsoConnectionEntity_default_role`, `SsoConnectionEntity`.`allow_idp_initiated` AS `SsoConnectionEntity_allow_idp_initiated`, `SsoConnectionEntity`.`issuer` AS `SsoConnectionEntity_issuer`, `SsoConnectionEntity`.`client_id` AS `SsoConnectionEntity_client_id`, `SsoConnectionEntity`.`client_secret` AS `SsoConnectionEntity_client_secret`, `SsoConnectionEntity`.`scopes` AS `SsoConnectionEntity_scopes`, `SsoConnectionEntity`.`token_endpoint_auth_method` AS `SsoConnectionEntity_token_endpoint_auth_method`, `SsoConnectionEntity`.`discovery` AS `SsoConnectionEntity_discovery`, `SsoConnectionEntity`.`metadata_url` AS `SsoConnectionEntity_metadata_url`, `SsoConnectionEntity`.`want_assertions_signed` AS `SsoConnectionEntity_want_assertions_signed`, `SsoConnectionEntity`.`expiry_warned_for` AS `SsoConnectionEntity_expiry_warned_for`, `SsoConnectionEntity`.`discovered_at` AS `SsoConnectionEntity_discovered_at`, `SsoConnectionEntity`.`activated_at` AS `SsoConnectionEntity_activated_at`, `SsoConnectionEntity`.`primary_at` AS `SsoConnectionEntity_primary_at`, `SsoConnectionEntity`.`created_at` AS `SsoConnectionEntity_created_at`, `SsoConnectionEntity`.`updated_at` AS `SsoConnectionEntity_updated_at` FROM `sso_connections` `SsoConnectionEntity` WHERE ((`SsoConnectionEntity`.`tenant_id` = ?)) ORDER BY `SsoConnectionEntity`.`created_at` ASC, `SsoConnectionEntity`.`id` ASC;

-- SsoConnectionsStore.countOwn
SELECT COUNT(1) AS `cnt` FROM `sso_connections` `SsoConnectionEntity` WHERE ((`SsoConnectionEntity`.`tenant_id` = ?));

-- SsoConnectionsStore.primaryOf
SELECT `SsoConnectionEntity`.`id` AS `SsoConnectionEntity_id`, `SsoConnectionEntity`.`tenant_id` AS `SsoConnectionEntity_tenant_id`, `SsoConnectionEntity`.`type` AS `SsoConnectionEntity_type`, `SsoConnectionEntity`.`name` AS `SsoConnectionEntity_name`, `SsoConnectionEntity`.`status` AS `SsoConnectionEntity_status`, `SsoConnectionEntity`.`jit` AS `SsoConnectionEntity_jit`, `SsoConnectionEntity`.`default_role` AS `SsoConnectionEntity_default_role`, `SsoConnectionEntity`.`allow_idp_initiated` AS `SsoConnectionEntity_allow_idp_initiated`, `SsoConnectionEntity`.`issuer` AS `SsoConnectionEntity_issuer`, `SsoConnectionEntity`.`client_id` AS `SsoConnectionEntity_client_id`, `SsoConnectionEntity`.`client_secret` AS `SsoConnectionEntity_client_secret`, `SsoConnectionEntity`.`scopes` AS `SsoConnectionEntity_scopes`, `SsoConnectionEntity`.`token_endpoint_auth_method` AS `SsoConnectionEntity_token_endpoint_auth_method`, `SsoConnectionEntity`.`discovery` AS `SsoConnectionEntity_discovery`, `SsoConnectionEntity`.`metadata_url` AS `SsoConnectionEntity_metadata_url`, `SsoConnectionEntity`.`want_assertions_signed` AS `SsoConnectionEntity_want_assertions_signed`, `SsoConnectionEntity`.`expiry_warned_for` AS `SsoConnectionEntity_expiry_warned_for`, `SsoConnectionEntity`.`discovered_at` AS `SsoConnectionEntity_discovered_at`, `SsoConnectionEntity`.`activated_at` AS `SsoConnectionEntity_activated_at`, `SsoConnectionEntity`.`primary_at` AS `SsoConnectionEntity_primary_at`, `SsoConnectionEntity`.`created_at` AS `SsoConnectionEntity_created_at`, `SsoConnectionEntity`.`updated_at` AS `SsoConnectionEntity_updated_at` FROM `sso_connections` `SsoConnectionEntity` WHERE ((`SsoConnectionEntity`.`tenant_id` = ?) AND (`SsoConnectionEntity`.`status` = ?));

-- SsoConnectionsStore.views, the last sign-in and the primary
SELECT `SsoConnectionEntity`.`id` AS `SsoConnectionEntity_id`, `SsoConnectionEntity`.`tenant_id` AS `SsoConnectionEntity_tenant_id`, `SsoConnectionEntity`.`type` AS `SsoConnectionEntity_type`, `SsoConnectionEntity`.`name` AS `SsoConnectionEntity_name`, `SsoConnectionEntity`.`status` AS `SsoConnectionEntity_status`, `SsoConnectionEntity`.`jit` AS `SsoConnectionEntity_jit`, `SsoConnectionEntity`.`default_role` AS `SsoConnectionEntity_default_role`, `SsoConnectionEntity`.`allow_idp_initiated` AS `SsoConnectionEntity_allow_idp_initiated`, `SsoConnectionEntity`.`issuer` AS `SsoConnectionEntity_issuer`, `SsoConnectionEntity`.`client_id` AS `SsoConnectionEntity_client_id`, `SsoConnectionEntity`.`client_secret` AS `SsoConnectionEntity_client_secret`, `SsoConnectionEntity`.`scopes` AS `SsoConnectionEntity_scopes`, `SsoConnectionEntity`.`token_endpoint_auth_method` AS `SsoConnectionEntity_token_endpoint_auth_method`, `SsoConnectionEntity`.`discovery` AS `SsoConnectionEntity_discovery`, `SsoConnectionEntity`.`metadata_url` AS `SsoConnectionEntity_metadata_url`, `SsoConnectionEntity`.`want_assertions_signed` AS `SsoConnectionEntity_want_assertions_signed`, `SsoConnectionEntity`.`expiry_warned_for` AS `SsoConnectionEntity_expiry_warned_for`, `SsoConnectionEntity`.`discovered_at` AS `SsoConnectionEntity_discovered_at`, `SsoConnectionEntity`.`activated_at` AS `SsoConnectionEntity_activated_at`, `SsoConnectionEntity`.`primary_at` AS `SsoConnectionEntity_primary_at`, `SsoConnectionEntity`.`created_at` AS `SsoConnectionEntity_created_at`, `SsoConnectionEntity`.`updated_at` AS `SsoConnectionEntity_updated_at` FROM `sso_connections` `SsoConnectionEntity` WHERE ((`SsoConnectionEntity`.`tenant_id` = ?) AND (`SsoConnectionEntity`.`status` = ?));

SELECT at, result FROM sso_attempts WHERE connection_id = ? ORDER BY at DESC, id DESC LIMIT 1;

-- SsoConnectionsStore.insert, under the organisation’s connections lease
INSERT IGNORE INTO leases (name, holder, held_until) VALUES (?, ?, ?);

START TRANSACTION;
UPDATE leases SET version = version + 1 WHERE name = ?;
SET @changed = ROW_COUNT();
UPDATE leases SET version = version + 1 WHERE name = ? AND ((SELECT COUNT(*) FROM sso_connections WHERE tenant_id = ?) < ?) AND @changed = 1;
SET @changed = ROW_COUNT();
INSERT INTO `sso_connections` (`id`, `tenant_id`, `type`, `name`, `status`, `jit`, `default_role`, `allow_idp_initiated`, `issuer`, `client_id`, `client_secret`, `scopes`, `token_endpoint_auth_method`, `discovery`, `metadata_url`, `want_assertions_signed`, `expiry_warned_for`, `discovered_at`, `activated_at`, `primary_at`, `created_at`, `updated_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;

COMMIT;

-- SsoConnectionsStore.update, only as read
START TRANSACTION;
UPDATE sso_connections SET name = ?, updated_at = ? WHERE id = ? AND updated_at = ?;
SET @changed = ROW_COUNT();
COMMIT;

-- SsoConnectionsStore.attempts
SELECT `SsoAttemptEntity`.`id` AS `SsoAttemptEntity_id`, `SsoAttemptEntity`.`connection_id` AS `SsoAttemptEntity_connection_id`, `SsoAttemptEntity`.`tenant_id` AS `SsoAttemptEntity_tenant_id`, `SsoAttemptEntity`.`at` AS `SsoAttemptEntity_at`, `SsoAttemptEntity`.`result` AS `SsoAttemptEntity_result`, `SsoAttemptEntity`.`email` AS `SsoAttemptEntity_email`, `SsoAttemptEntity`.`subject` AS `SsoAttemptEntity_subject`, `SsoAttemptEntity`.`detail` AS `SsoAttemptEntity_detail` FROM `sso_attempts` `SsoAttemptEntity` WHERE ((`SsoAttemptEntity`.`connection_id` = ?)) ORDER BY `SsoAttemptEntity`.`at` DESC, `SsoAttemptEntity`.`id` DESC LIMIT 100;

-- SsoConnectionsStore.samlConnections
SELECT `SsoConnectionEntity`.`id` AS `SsoConnectionEntity_id`, `SsoConnectionEntity`.`tenant_id` AS `SsoConnectionEntity_tenant_id`, `SsoConnectionEntity`.`type` AS `SsoConnectionEntity_type`, `SsoConnectionEntity`.`name` AS `SsoConnectionEntity_name`, `SsoConnectionEntity`.`status` AS `SsoConnectionEntity_status`, `SsoConnectionEntity`.`jit` AS `SsoConnectionEntity_jit`, `SsoConnectionEntity`.`default_role` AS `SsoConnectionEntity_default_role`, `SsoConnectionEntity`.`allow_idp_initiated` AS `SsoConnectionEntity_allow_idp_initiated`, `SsoConnectionEntity`.`issuer` AS `SsoConnectionEntity_issuer`, `SsoConnectionEntity`.`client_id` AS `SsoConnectionEntity_client_id`, `SsoConnectionEntity`.`client_secret` AS `SsoConnectionEntity_client_secret`, `SsoConnectionEntity`.`scopes` AS `SsoConnectionEntity_scopes`, `SsoConnectionEntity`.`token_endpoint_auth_method` AS `SsoConnectionEntity_token_endpoint_auth_method`, `SsoConnectionEntity`.`discovery` AS `SsoConnectionEntity_discovery`, `SsoConnectionEntity`.`metadata_url` AS `SsoConnectionEntity_metadata_url`, `SsoConnectionEntity`.`want_assertions_signed` AS `SsoConnectionEntity_want_assertions_signed`, `SsoConnectionEntity`.`expiry_warned_for` AS `SsoConnectionEntity_expiry_warned_for`, `SsoConnectionEntity`.`discovered_at` AS `SsoConnectionEntity_discovered_at`, `SsoConnectionEntity`.`activated_at` AS `SsoConnectionEntity_activated_at`, `SsoConnectionEntity`.`primary_at` AS `SsoConnectionEntity_primary_at`, `SsoConnectionEntity`.`created_at` AS `SsoConnectionEntity_created_at`, `SsoConnectionEntity`.`updated_at` AS `SsoConnectionEntity_updated_at` FROM `sso_connections` `SsoConnectionEntity` WHERE ((((`SsoConnectionEntity`.`type` = ?) AND (`SsoConnectionEntity`.`status` = ?))) OR (((`SsoConnectionEntity`.`type` = ?) AND (`SsoConnectionEntity`.`status` = ?))));

-- SsoConnectionsStore.warnCertificateExpiry, once per certificate
START TRANSACTION;
UPDATE sso_connections SET expiry_warned_for = ? WHERE id = ? AND (expiry_warned_for IS NULL OR expiry_warned_for <> ?);
SET @changed = ROW_COUNT();
COMMIT;

-- SsoConnectionsStore.enforce, unless no connection is active
START TRANSACTION;
SET @changed = NOT EXISTS (SELECT 1 AS held FROM tenants WHERE id = ? AND NOT EXISTS (SELECT 1 FROM sso_connections WHERE tenant_id = ? AND status = 'active'));
INSERT INTO `sso_enforcements` (`tenant_id`, `enforced_at`, `enforced_by`) SELECT ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- SsoConnectionsStore.isEnforced
SELECT tenant_id FROM sso_enforcements WHERE tenant_id = ?;

-- SsoConnectionsStore.unenforce
START TRANSACTION;
DELETE FROM sso_enforcements WHERE tenant_id = ?;
SET @changed = ROW_COUNT();
COMMIT;

-- SsoConnectionsStore.remove, with its links, requests and attempts
START TRANSACTION;
DELETE FROM sso_connections WHERE id = ?;
SET @changed = ROW_COUNT();
DELETE FROM sso_identities WHERE connection_id = ? AND @changed = 1;
DELETE FROM sso_requests WHERE connection_id = ? AND @changed = 1;
DELETE FROM sso_attempts WHERE connection_id = ? AND @changed = 1;
COMMIT;

-- The SQL of domains.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- DomainsStore.findOwn
SELECT `OrgDomainEntity`.`id` AS `OrgDomainEntity_id`, `OrgDomainEntity`.`tenant_id` AS `OrgDomainEntity_tenant_id`, `OrgDomainEntity`.`name` AS `OrgDomainEntity_name`, `OrgDomainEntity`.`status` AS `OrgDomainEntity_status`, `OrgDomainEntity`.`join_mode` AS `OrgDomainEntity_join_mode`, `OrgDomainEntity`.`token` AS `OrgDomainEntity_token`, `OrgDomainEntity`.`token_issued_at` AS `OrgDomainEntity_token_issued_at`, `OrgDomainEntity`.`last_check_at` AS `OrgDomainEntity_last_check_at`, `OrgDomainEntity`.`last_check_result` AS `OrgDomainEntity_last_check_result`, `OrgDomainEntity`.`verified_at` AS `OrgDomainEntity_verified_at`, `OrgDomainEntity`.`grace_ends_at` AS `OrgDomainEntity_grace_ends_at`, `OrgDomainEntity`.`next_check_at` AS `OrgDomainEntity_next_check_at`, `OrgDomainEntity`.`held_name` AS `OrgDomainEntity_held_name`, `OrgDomainEntity`.`created_at` AS `OrgDomainEntity_created_at` FROM `org_domains` `OrgDomainEntity` WHERE ((`OrgDomainEntity`.`tenant_id` = ?) AND (`OrgDomainEntity`.`name` = ?)) LIMIT 1;

-- DomainsStore.listOwn
SELECT `OrgDomainEntity`.`id` AS `OrgDomainEntity_id`, `OrgDomainEntity`.`tenant_id` AS `OrgDomainEntity_tenant_id`, `OrgDomainEntity`.`name` AS `OrgDomainEntity_name`, `OrgDomainEntity`.`status` AS `OrgDomainEntity_status`, `OrgDomainEntity`.`join_mode` AS `OrgDomainEntity_join_mode`, `OrgDomainEntity`.`token` AS `OrgDomainEntity_token`, `OrgDomainEntity`.`token_issued_at` AS `OrgDomainEntity_token_issued_at`, `OrgDomainEntity`.`last_check_at` AS `OrgDomainEntity_last_check_at`, `OrgDomainEntity`.`last_check_result` AS `OrgDomainEntity_last_check_result`, `OrgDomainEntity`.`verified_at` AS `OrgDomainEntity_verified_at`, `OrgDomainEntity`.`grace_ends_at` AS `OrgDomainEntity_grace_ends_at`, `OrgDomainEntity`.`next_check_at` AS `OrgDomainEntity_next_check_at`, `OrgDomainEntity`.`held_name` AS `OrgDomainEntity_held_name`, `OrgDomainEntity`.`created_at` AS `OrgDomainEntity_created_at` FROM `org_domains` `OrgDomainEntity` WHERE ((`OrgDomainEntity`.`tenant_id` = ?)) ORDER BY `OrgDomainEntity`.`name` ASC;

-- DomainsStore.countOwn
SELECT COUNT(1) AS `cnt` FROM `org_domains` `OrgDomainEntity` WHERE ((`OrgDomainEntity`.`tenant_id` = ?));

-- DomainsStore.heldByAnother
SELECT `OrgDomainEntity`.`id` AS `OrgDomainEntity_id`, `OrgDomainEntity`.`tenant_id` AS `OrgDomainEntity_tenant_id`, `OrgDomainEntity`.`name` AS `OrgDomainEntity_name`, `OrgDomainEntity`.`status` AS `OrgDomainEntity_status`, `OrgDomainEntity`.`join_mode` AS `OrgDomainEntity_join_mode`, `OrgDomainEntity`.`token` AS `OrgDomainEntity_token`, `OrgDomainEntity`.`token_issued_at` AS `OrgDomainEntity_token_issued_at`, `OrgDomainEntity`.`last_check_at` AS `OrgDomainEntity_last_check_at`, `OrgDomainEntity`.`last_check_result` AS `OrgDomainEntity_last_check_result`, `OrgDomainEntity`.`verified_at` AS `OrgDomainEntity_verified_at`, `OrgDomainEntity`.`grace_ends_at` AS `OrgDomainEntity_grace_ends_at`, `OrgDomainEntity`.`next_check_at` AS `OrgDomainEntity_next_check_at`, `OrgDomainEntity`.`held_name` AS `OrgDomainEntity_held_name`, `OrgDomainEntity`.`created_at` AS `OrgDomainEntity_created_at` FROM `org_domains` `OrgDomainEntity` WHERE ((`OrgDomainEntity`.`held_name` = ?)) LIMIT 1;

-- DomainsStore.joinable
SELECT d.id AS domain_id, d.tenant_id, d.name, d.join_mode, d.status, d.grace_ends_at, t.name AS tenant_name, EXISTS (SELECT 1 FROM sso_enforcements e WHERE e.tenant_id = d.tenant_id) AS sso_enforced FROM org_domains d JOIN tenants t ON t.id = d.tenant_id WHERE d.name = ? AND d.status IN ('verified', 'failing') AND d.join_mode <> 'off' AND t.status = 'active' ORDER BY t.name, d.tenant_id;

-- DomainsStore.findPendingRequest
SELECT `JoinRequestEntity`.`id` AS `JoinRequestEntity_id`, `JoinRequestEntity`.`tenant_id` AS `JoinRequestEntity_tenant_id`, `JoinRequestEntity`.`user_id` AS `JoinRequestEntity_user_id`, `JoinRequestEntity`.`email` AS `JoinRequestEntity_email`, `JoinRequestEntity`.`domain` AS `JoinRequestEntity_domain`, `JoinRequestEntity`.`status` AS `JoinRequestEntity_status`, `JoinRequestEntity`.`pending_key` AS `JoinRequestEntity_pending_key`, `JoinRequestEntity`.`created_at` AS `JoinRequestEntity_created_at`, `JoinRequestEntity`.`decided_at` AS `JoinRequestEntity_decided_at` FROM `join_requests` `JoinRequestEntity` WHERE ((`JoinRequestEntity`.`pending_key` = ?)) LIMIT 1;

-- DomainsStore.listRequests
SELECT `JoinRequestEntity`.`id` AS `JoinRequestEntity_id`, `JoinRequestEntity`.`tenant_id` AS `JoinRequestEntity_tenant_id`, `JoinRequestEntity`.`user_id` AS `JoinRequestEntity_user_id`, `JoinRequestEntity`.`email` AS `JoinRequestEntity_email`, `JoinRequestEntity`.`domain` AS `JoinRequestEntity_domain`, `JoinRequestEntity`.`status` AS `JoinRequestEntity_status`, `JoinRequestEntity`.`pending_key` AS `JoinRequestEntity_pending_key`, `JoinRequestEntity`.`created_at` AS `JoinRequestEntity_created_at`, `JoinRequestEntity`.`decided_at` AS `JoinRequestEntity_decided_at` FROM `join_requests` `JoinRequestEntity` WHERE ((`JoinRequestEntity`.`tenant_id` = ?) AND (`JoinRequestEntity`.`status` = ?)) ORDER BY `JoinRequestEntity`.`created_at` ASC, `JoinRequestEntity`.`id` ASC;

-- DomainsStore.insert, under the organisation’s claims lease
INSERT IGNORE INTO leases (name, holder, held_until) VALUES (?, ?, ?);

START TRANSACTION;
UPDATE leases SET version = version + 1 WHERE name = ?;
SET @changed = ROW_COUNT();
UPDATE leases SET version = version + 1 WHERE name = ? AND ((SELECT COUNT(*) FROM org_domains WHERE tenant_id = ?) < ?) AND @changed = 1;
SET @changed = ROW_COUNT();
INSERT INTO `org_domains` (`id`, `tenant_id`, `name`, `status`, `join_mode`, `token`, `token_issued_at`, `last_check_at`, `last_check_result`, `verified_at`, `grace_ends_at`, `next_check_at`, `held_name`, `created_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;

COMMIT;

-- DomainsStore.update, its status and token as read
START TRANSACTION;
UPDATE org_domains SET join_mode = ?, last_check_at = ? WHERE id = ? AND status = ? AND token = ?;
SET @changed = ROW_COUNT();
COMMIT;

-- DomainsStore.defaultRolesOf
SELECT domain_id AS domainId, role_key AS roleKey FROM org_domain_roles WHERE domain_id IN (?, ?) ORDER BY domain_id, role_key;

-- DomainsStore.replaceDefaultRoles, each role as read
START TRANSACTION;
UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?;
SET @changed = ROW_COUNT();
DELETE FROM org_domain_roles WHERE domain_id = ? AND @changed = 1;
INSERT INTO `org_domain_roles` (`domain_id`, `role_key`, `tenant_id`) SELECT ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- DomainsStore.claimDue
SELECT id, next_check_at FROM org_domains WHERE next_check_at <= ? AND status IN ('verified', 'failing') ORDER BY next_check_at LIMIT 10;

UPDATE org_domains SET next_check_at = ? WHERE id = ? AND next_check_at = ?;

SELECT `OrgDomainEntity`.`id` AS `OrgDomainEntity_id`, `OrgDomainEntity`.`tenant_id` AS `OrgDomainEntity_tenant_id`, `OrgDomainEntity`.`name` AS `OrgDomainEntity_name`, `OrgDomainEntity`.`status` AS `OrgDomainEntity_status`, `OrgDomainEntity`.`join_mode` AS `OrgDomainEntity_join_mode`, `OrgDomainEntity`.`token` AS `OrgDomainEntity_token`, `OrgDomainEntity`.`token_issued_at` AS `OrgDomainEntity_token_issued_at`, `OrgDomainEntity`.`last_check_at` AS `OrgDomainEntity_last_check_at`, `OrgDomainEntity`.`last_check_result` AS `OrgDomainEntity_last_check_result`, `OrgDomainEntity`.`verified_at` AS `OrgDomainEntity_verified_at`, `OrgDomainEntity`.`grace_ends_at` AS `OrgDomainEntity_grace_ends_at`, `OrgDomainEntity`.`next_check_at` AS `OrgDomainEntity_next_check_at`, `OrgDomainEntity`.`held_name` AS `OrgDomainEntity_held_name`, `OrgDomainEntity`.`created_at` AS `OrgDomainEntity_created_at` FROM `org_domains` `OrgDomainEntity` WHERE ((`OrgDomainEntity`.`id` IN (?)));

-- DomainsStore.decide
START TRANSACTION;
UPDATE join_requests SET status = ?, pending_key = NULL, decided_at = ? WHERE id = ? AND status = 'pending';
SET @changed = ROW_COUNT();
COMMIT;

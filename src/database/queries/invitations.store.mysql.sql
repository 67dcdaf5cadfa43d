-- The SQL of invitations.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- InvitationsStore.create
START TRANSACTION;
INSERT INTO `tenant_invitations` (`id`, `tenant_id`, `email`, `email_key`, `role`, `status`, `expires_at`, `invited_by`, `created_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `invitation_email_outbox` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `invitation_id`, `payload`, `sent_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- InvitationsStore.create, replacing an invitation
START TRANSACTION;
UPDATE tenant_invitations SET status = 'revoked' WHERE id = ? AND status IN ('pending', 'expired');
SET @changed = ROW_COUNT();
INSERT INTO `tenant_invitations` (`id`, `tenant_id`, `email`, `email_key`, `role`, `status`, `expires_at`, `invited_by`, `created_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `invitation_email_outbox` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `invitation_id`, `payload`, `sent_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- InvitationsStore.create, unless a query finds a row
START TRANSACTION;
SET @changed = NOT EXISTS (SELECT 1 AS candidate FROM users WHERE tenant_id = ? AND email_key = ? UNION ALL SELECT 1 AS candidate FROM users WHERE tenant_id = ? AND email = ?);
INSERT INTO `tenant_invitations` (`id`, `tenant_id`, `email`, `email_key`, `role`, `status`, `expires_at`, `invited_by`, `created_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `invitation_email_outbox` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `invitation_id`, `payload`, `sent_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- InvitationsStore.createMany, two invitations
START TRANSACTION;
INSERT INTO `tenant_invitations` (`id`, `tenant_id`, `email`, `email_key`, `role`, `status`, `expires_at`, `invited_by`, `created_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `invitation_email_outbox` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `invitation_id`, `payload`, `sent_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `tenant_invitations` (`id`, `tenant_id`, `email`, `email_key`, `role`, `status`, `expires_at`, `invited_by`, `created_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `invitation_email_outbox` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `invitation_id`, `payload`, `sent_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- InvitationsStore.findAcceptableKeys
SELECT email_key FROM tenant_invitations WHERE tenant_id = ? AND status = 'pending' AND expires_at >= ? AND email_key IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- InvitationsStore.findById
SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at FROM tenant_invitations WHERE id = ?;

-- InvitationsStore.setExpiry
UPDATE tenant_invitations SET expires_at = ? WHERE id = ?;

-- InvitationsStore.pendingTo
SELECT i.id, i.tenant_id, i.email, i.role, i.status, i.expires_at, i.invited_by, i.created_at, t.name AS tenant_name, t.status AS tenant_status FROM tenant_invitations i JOIN tenants t ON t.id = i.tenant_id WHERE i.email_key = ? AND i.status = 'pending' AND i.expires_at >= ? ORDER BY i.created_at, i.id;

-- InvitationsStore.findTenantName
SELECT name FROM tenants WHERE id = ?;

-- InvitationsStore.listForTenant, first page
SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at FROM tenant_invitations FORCE INDEX (IDX_tenant_invitations_tenant_email_id) WHERE tenant_id = ? ORDER BY email, id LIMIT 51;

-- InvitationsStore.listForTenant, one status, after a cursor
SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at FROM tenant_invitations FORCE INDEX (IDX_tenant_invitations_tenant_status_email_id) WHERE tenant_id = ? AND status = ? AND email >= ? AND (email > ? OR id > ?) ORDER BY email, id LIMIT 51;

-- InvitationsStore.listForTenant, expired (two ranges)
SELECT * FROM (SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at FROM tenant_invitations FORCE INDEX (IDX_tenant_invitations_tenant_status_email_id) WHERE tenant_id = ? AND status = ? AND email > ? ORDER BY email, id LIMIT 51) AS range_0 UNION ALL SELECT * FROM (SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at FROM tenant_invitations WHERE tenant_id = ? AND status = ? AND expires_at < ? AND email > ? ORDER BY email, id LIMIT 51) AS range_1 ORDER BY email, id LIMIT 51;

-- InvitationsStore.listForTenant, open (pending and expired)
SELECT * FROM (SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at FROM tenant_invitations FORCE INDEX (IDX_tenant_invitations_tenant_status_email_id) WHERE tenant_id = ? AND status = ? ORDER BY email, id LIMIT 51) AS range_0 UNION ALL SELECT * FROM (SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at FROM tenant_invitations FORCE INDEX (IDX_tenant_invitations_tenant_status_email_id) WHERE tenant_id = ? AND status = ? ORDER BY email, id LIMIT 51) AS range_1 ORDER BY email, id LIMIT 51;

-- InvitationsStore.markExpired
START TRANSACTION;
UPDATE tenant_invitations SET status = 'expired' WHERE id = ? AND status = 'pending';
SET @changed = ROW_COUNT();
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- InvitationsStore.accept
START TRANSACTION;
UPDATE tenant_invitations SET status = 'accepted' WHERE id = ? AND status IN ('pending', 'expired') AND expires_at >= ? AND NOT EXISTS (SELECT 1 FROM tenants WHERE tenants.id = tenant_invitations.tenant_id AND tenants.status IN ('suspended', 'deleted'));
SET @changed = ROW_COUNT();
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

-- InvitationsStore.revoke
START TRANSACTION;
UPDATE tenant_invitations SET status = 'revoked' WHERE id = ? AND status IN ('pending', 'expired');
SET @changed = ROW_COUNT();
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE @changed = 1;
COMMIT;

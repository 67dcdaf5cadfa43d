-- The SQL of outbox-rows.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- OutboxRows.due
SELECT id, status, attempts, next_attempt_at, claimed_by, claimed_until, last_error, created_at, invitation_id, payload, sent_at FROM (SELECT id, status, attempts, next_attempt_at, claimed_by, claimed_until, last_error, created_at, invitation_id, payload, sent_at FROM invitation_email_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT 10) AS pending_rows UNION ALL SELECT id, status, attempts, next_attempt_at, claimed_by, claimed_until, last_error, created_at, invitation_id, payload, sent_at FROM (SELECT id, status, attempts, next_attempt_at, claimed_by, claimed_until, last_error, created_at, invitation_id, payload, sent_at FROM invitation_email_outbox WHERE status = 'sending' AND (claimed_until < ? OR claimed_by = ?) ORDER BY next_attempt_at LIMIT 10) AS sending_rows ORDER BY next_attempt_at LIMIT 10;

-- OutboxRows.claim, a row that due read
UPDATE invitation_email_outbox SET status = 'sending', claimed_by = ?, claimed_until = ?, attempts = attempts + 1 WHERE id = ? AND ((status = 'pending' AND next_attempt_at <= ?) OR (status = 'sending' AND (claimed_until < ? OR claimed_by = ?))) AND attempts = ?;

-- OutboxRows.claim, a row not read
UPDATE invitation_email_outbox SET status = 'sending', claimed_by = ?, claimed_until = ?, attempts = attempts + 1 WHERE id = ? AND ((status = 'pending' AND next_attempt_at <= ?) OR (status = 'sending' AND (claimed_until < ? OR claimed_by = ?)));

SELECT `InvitationEmailOutboxEntity`.`id` AS `InvitationEmailOutboxEntity_id`, `InvitationEmailOutboxEntity`.`status` AS `InvitationEmailOutboxEntity_status`, `InvitationEmailOutboxEntity`.`attempts` AS `InvitationEmailOutboxEntity_attempts`, `InvitationEmailOutboxEntity`.`next_attempt_at` AS `InvitationEmailOutboxEntity_next_attempt_at`, `InvitationEmailOutboxEntity`.`claimed_by` AS `InvitationEmailOutboxEntity_claimed_by`, `InvitationEmailOutboxEntity`.`claimed_until` AS `InvitationEmailOutboxEntity_claimed_until`, `InvitationEmailOutboxEntity`.`last_error` AS `InvitationEmailOutboxEntity_last_error`, `InvitationEmailOutboxEntity`.`created_at` AS `InvitationEmailOutboxEntity_created_at`, `InvitationEmailOutboxEntity`.`invitation_id` AS `InvitationEmailOutboxEntity_invitation_id`, `InvitationEmailOutboxEntity`.`payload` AS `InvitationEmailOutboxEntity_payload`, `InvitationEmailOutboxEntity`.`sent_at` AS `InvitationEmailOutboxEntity_sent_at` FROM `invitation_email_outbox` `InvitationEmailOutboxEntity` WHERE ((`InvitationEmailOutboxEntity`.`id` = ?)) LIMIT 1;

-- OutboxRows.markDone
UPDATE invitation_email_outbox SET status = ?, next_attempt_at = COALESCE(?, next_attempt_at), last_error = COALESCE(?, last_error), sent_at = COALESCE(?, sent_at), claimed_by = NULL, claimed_until = NULL WHERE id = ? AND status = 'sending' AND claimed_by = ?;

-- OutboxRows.retryLater
UPDATE invitation_email_outbox SET status = ?, next_attempt_at = COALESCE(?, next_attempt_at), last_error = COALESCE(?, last_error), sent_at = COALESCE(?, sent_at), claimed_by = NULL, claimed_until = NULL WHERE id = ? AND status = 'sending' AND claimed_by = ?;

-- OutboxRows.markFailed
UPDATE invitation_email_outbox SET status = ?, next_attempt_at = COALESCE(?, next_attempt_at), last_error = COALESCE(?, last_error), sent_at = COALESCE(?, sent_at), claimed_by = NULL, claimed_until = NULL WHERE id = ? AND status = 'sending' AND claimed_by = ?;

-- OutboxRows.purgeDone
DELETE FROM `invitation_email_outbox` WHERE `status` = ? AND `sent_at` < ?;

-- OutboxRows.oldestWaiting
SELECT MIN(`outbox`.`created_at`) AS `oldest` FROM `invitation_email_outbox` `outbox` WHERE `outbox`.`status` IN (?, ?);

-- OutboxRows.markDone, of a table whose done rows are deleted
DELETE FROM membership_grants WHERE id = ? AND status = 'sending' AND claimed_by = ?;

-- OutboxRows.retryLater, of a table whose done rows are deleted
UPDATE membership_grants SET status = ?, next_attempt_at = COALESCE(?, next_attempt_at), last_error = COALESCE(?, last_error), claimed_by = NULL, claimed_until = NULL WHERE id = ? AND status = 'sending' AND claimed_by = ?;

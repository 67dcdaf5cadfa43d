-- The SQL of audit-recorder.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- AuditRecorder.record
START TRANSACTION;
INSERT INTO `audit_events` (`id`, `type`, `occurred_at`, `tenant_id`, `actor_id`, `actor_email`, `target_type`, `target_id`, `target_email`, `data`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `webhook_deliveries` (`id`, `status`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`, `last_error`, `created_at`, `event_id`, `url`, `payload`, `delivered_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- AuditRecorder.deletions, of an event and its delivery, in a transaction
START TRANSACTION;
DELETE FROM audit_events WHERE id IN (?);
DELETE FROM webhook_deliveries WHERE id IN (?);
COMMIT;

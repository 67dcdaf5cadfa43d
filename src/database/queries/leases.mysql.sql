-- The SQL of leases.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- Leases.tryAcquire, a lease no one holds
UPDATE leases SET holder = ?, held_until = ? WHERE name = ? AND (holder IS NULL OR held_until < ?);

-- Leases.renew
UPDATE leases SET held_until = ? WHERE name = ? AND holder = ?;

-- Leases.release
UPDATE leases SET holder = NULL, held_until = 0 WHERE name = ? AND holder = ?;

-- Leases.ensure
INSERT IGNORE INTO leases (name, holder, held_until) VALUES (?, ?, ?);

-- Leases.written, twice in a transaction, the second only if
START TRANSACTION;
UPDATE leases SET version = version + 1 WHERE name = ?;
SET @changed = ROW_COUNT();
UPDATE leases SET version = version + 1 WHERE name = ? AND ((SELECT COUNT(*) FROM tenants) < ?) AND @changed = 1;
SET @changed = ROW_COUNT();

COMMIT;

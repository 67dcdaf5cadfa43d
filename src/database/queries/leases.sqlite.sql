-- The SQL of leases.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- Leases.tryAcquire, a lease no one holds
UPDATE leases SET holder = ?, held_until = ? WHERE name = ? AND (holder IS NULL OR held_until < ?);

-- Leases.renew
UPDATE leases SET held_until = ? WHERE name = ? AND holder = ?;

-- Leases.release
UPDATE leases SET holder = NULL, held_until = 0 WHERE name = ? AND holder = ?;

-- Leases.ensure
INSERT INTO leases (name, holder, held_until) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING;

-- Leases.written, twice in a transaction, the second only if
BEGIN IMMEDIATE;
UPDATE leases SET version = version + 1 WHERE name = ?;
UPDATE leases SET version = version + 1 WHERE name = ? AND ((SELECT COUNT(*) FROM tenants) < ?);
COMMIT;

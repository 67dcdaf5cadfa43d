-- The SQL of test-mode.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- TestModeStore.mailbox
SELECT o.payload, o.sent_at, i.email FROM invitation_email_outbox o JOIN tenant_invitations i ON i.id = o.invitation_id WHERE LOWER(i.email) = ? ORDER BY o.created_at DESC, o.id DESC LIMIT 50;

-- TestModeStore.tenantsNamed
SELECT id, name FROM tenants WHERE name LIKE ? ESCAPE '!' ORDER BY id LIMIT 100;

-- TestModeStore.removeTenants
DELETE FROM invitation_email_outbox WHERE invitation_id IN (SELECT id FROM tenant_invitations WHERE tenant_id IN (?, ?));

DELETE FROM tenant_invitations WHERE tenant_id IN (?, ?);

DELETE FROM membership_grants WHERE tenant_id IN (?, ?);

DELETE FROM audit_events WHERE tenant_id IN (?, ?);

DELETE FROM tenants WHERE id IN (?, ?);

-- The SQL of sso-secrets.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- SsoSecretsStore.sealedSecrets
SELECT id, client_secret FROM sso_connections WHERE type = 'oidc' ORDER BY id;

-- SsoSecretsStore.reseal, only as read
UPDATE sso_connections SET client_secret = ? WHERE id = ? AND client_secret = ?;

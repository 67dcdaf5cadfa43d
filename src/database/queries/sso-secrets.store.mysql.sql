-- The SQL of sso-secrets.store.ts on MySQL/MariaDB: what reaches mysql2, a statement per line: an empty line separates round trips.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- SsoSecretsStore.sealedSecrets
SELECT id, client_secret FROM sso_connections WHERE type = 'oidc' ORDER BY id;

-- SsoSecretsStore.reseal, only as read
UPDATE sso_connections SET client_secret = ? WHERE id = ? AND client_secret = ?;

-- The SQL of sso-sign-ins.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- SsoSignInsStore.holderOf
SELECT d.tenant_id, t.name AS tenant_name FROM org_domains d JOIN tenants t ON t.id = d.tenant_id WHERE d.held_name = ? AND t.status = 'active' AND (d.status = 'verified' OR (d.status = 'failing' AND (d.grace_ends_at IS NULL OR d.grace_ends_at > ?)));

-- SsoSignInsStore.tenantActive
SELECT name FROM tenants WHERE id = ? AND status = 'active';

-- SsoSignInsStore.insertRequest, expired ones gone meanwhile
DELETE FROM sso_requests WHERE expires_at < ?;
BEGIN IMMEDIATE;
INSERT INTO "sso_requests" ("state", "connection_id", "nonce", "code_verifier", "return_to", "purpose", "expires_at", "created_at", "used_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- SsoSignInsStore.isPendingTest
SELECT 1 AS pending FROM sso_requests WHERE state = ? AND connection_id = ? AND purpose = 'test' AND used_at IS NULL;

-- SsoSignInsStore.useRequest, once
UPDATE sso_requests SET used_at = ? WHERE state = ? AND connection_id = ? AND used_at IS NULL AND expires_at > ?;
SELECT "SsoRequestEntity"."state" AS "SsoRequestEntity_state", "SsoRequestEntity"."connection_id" AS "SsoRequestEntity_connection_id", "SsoRequestEntity"."nonce" AS "SsoRequestEntity_nonce", "SsoRequestEntity"."code_verifier" AS "SsoRequestEntity_code_verifier", "SsoRequestEntity"."return_to" AS "SsoRequestEntity_return_to", "SsoRequestEntity"."purpose" AS "SsoRequestEntity_purpose", "SsoRequestEntity"."expires_at" AS "SsoRequestEntity_expires_at", "SsoRequestEntity"."created_at" AS "SsoRequestEntity_created_at", "SsoRequestEntity"."used_at" AS "SsoRequestEntity_used_at" FROM "sso_requests" "SsoRequestEntity" WHERE (("SsoRequestEntity"."state" = ?)) LIMIT 1;

-- SsoSignInsStore.findRequest
SELECT "SsoRequestEntity"."state" AS "SsoRequestEntity_state", "SsoRequestEntity"."connection_id" AS "SsoRequestEntity_connection_id", "SsoRequestEntity"."nonce" AS "SsoRequestEntity_nonce", "SsoRequestEntity"."code_verifier" AS "SsoRequestEntity_code_verifier", "SsoRequestEntity"."return_to" AS "SsoRequestEntity_return_to", "SsoRequestEntity"."purpose" AS "SsoRequestEntity_purpose", "SsoRequestEntity"."expires_at" AS "SsoRequestEntity_expires_at", "SsoRequestEntity"."created_at" AS "SsoRequestEntity_created_at", "SsoRequestEntity"."used_at" AS "SsoRequestEntity_used_at" FROM "sso_requests" "SsoRequestEntity" WHERE (("SsoRequestEntity"."state" = ?)) LIMIT 1;

-- SsoSignInsStore.rememberAssertion, expired ones gone meanwhile
DELETE FROM sso_assertions WHERE expires_at < ?;
BEGIN IMMEDIATE;
INSERT INTO "sso_assertions" ("connection_id", "assertion_id", "expires_at") VALUES (?, ?, ?);
COMMIT;

-- SsoSignInsStore.findIdentity
SELECT "SsoIdentityEntity"."connection_id" AS "SsoIdentityEntity_connection_id", "SsoIdentityEntity"."subject" AS "SsoIdentityEntity_subject", "SsoIdentityEntity"."user_id" AS "SsoIdentityEntity_user_id", "SsoIdentityEntity"."email" AS "SsoIdentityEntity_email", "SsoIdentityEntity"."created_at" AS "SsoIdentityEntity_created_at", "SsoIdentityEntity"."last_login_at" AS "SsoIdentityEntity_last_login_at" FROM "sso_identities" "SsoIdentityEntity" WHERE (("SsoIdentityEntity"."connection_id" = ?) AND ("SsoIdentityEntity"."subject" = ?)) LIMIT 1;

-- SsoSignInsStore.signedIn, a first sign-in
BEGIN IMMEDIATE;
INSERT INTO "sso_identities" ("connection_id", "subject", "user_id", "email", "created_at", "last_login_at") VALUES (?, ?, ?, ?, ?, ?);
COMMIT;

-- SsoSignInsStore.signedIn, a returning person
BEGIN IMMEDIATE;
UPDATE sso_identities SET email = ?, last_login_at = ? WHERE connection_id = ? AND subject = ?;
ROLLBACK;

-- SsoSignInsStore.recordAttempt
BEGIN IMMEDIATE;
INSERT INTO "sso_attempts" ("id", "connection_id", "tenant_id", "at", "result", "email", "subject", "detail") VALUES (?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

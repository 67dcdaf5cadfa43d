-- The SQL of setup-links.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- SetupLinksStore.insert, while the organisation has fewer open links than the limit
INSERT INTO leases (name, holder, held_until) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING;
BEGIN IMMEDIATE;
UPDATE leases SET version = version + 1 WHERE name = ? AND ((SELECT COUNT(*) FROM setup_links WHERE tenant_id = ? AND revoked_at IS NULL AND completed_at IS NULL AND expires_at > ?) < ?);
INSERT INTO "setup_links" ("id", "tenant_id", "token_hash", "intents", "email", "created_by", "created_at", "expires_at", "last_opened_at", "completed_at", "revoked_at", "expiry_recorded_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
COMMIT;

-- SetupLinksStore.findByTokenHash, with its organisation
SELECT setup_links.id, setup_links.tenant_id AS tenantId, setup_links.token_hash AS tokenHash, setup_links.intents, setup_links.email, setup_links.created_by AS createdBy, setup_links.created_at AS createdAt, setup_links.expires_at AS expiresAt, setup_links.last_opened_at AS lastOpenedAt, setup_links.completed_at AS completedAt, setup_links.revoked_at AS revokedAt, setup_links.expiry_recorded_at AS expiryRecordedAt, tenants.name AS tenantName, tenants.status AS tenantStatus FROM setup_links LEFT JOIN tenants ON tenants.id = setup_links.tenant_id WHERE setup_links.token_hash = ?;

-- SetupLinksStore.findById, with its organisation
SELECT setup_links.id, setup_links.tenant_id AS tenantId, setup_links.token_hash AS tokenHash, setup_links.intents, setup_links.email, setup_links.created_by AS createdBy, setup_links.created_at AS createdAt, setup_links.expires_at AS expiresAt, setup_links.last_opened_at AS lastOpenedAt, setup_links.completed_at AS completedAt, setup_links.revoked_at AS revokedAt, setup_links.expiry_recorded_at AS expiryRecordedAt, tenants.name AS tenantName, tenants.status AS tenantStatus FROM setup_links LEFT JOIN tenants ON tenants.id = setup_links.tenant_id WHERE setup_links.id = ?;

-- SetupLinksStore.findOwn
SELECT setup_links.id, setup_links.tenant_id AS tenantId, setup_links.token_hash AS tokenHash, setup_links.intents, setup_links.email, setup_links.created_by AS createdBy, setup_links.created_at AS createdAt, setup_links.expires_at AS expiresAt, setup_links.last_opened_at AS lastOpenedAt, setup_links.completed_at AS completedAt, setup_links.revoked_at AS revokedAt, setup_links.expiry_recorded_at AS expiryRecordedAt FROM setup_links WHERE tenant_id = ? AND id = ?;

-- SetupLinksStore.listOwn, newest first
SELECT setup_links.id, setup_links.tenant_id AS tenantId, setup_links.token_hash AS tokenHash, setup_links.intents, setup_links.email, setup_links.created_by AS createdBy, setup_links.created_at AS createdAt, setup_links.expires_at AS expiresAt, setup_links.last_opened_at AS lastOpenedAt, setup_links.completed_at AS completedAt, setup_links.revoked_at AS revokedAt, setup_links.expiry_recorded_at AS expiryRecordedAt FROM setup_links WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT 100;

-- SetupLinksStore.opened, while open
BEGIN IMMEDIATE;
UPDATE setup_links SET last_opened_at = ? WHERE id = ? AND revoked_at IS NULL AND completed_at IS NULL AND expires_at > ?;
COMMIT;

-- SetupLinksStore.revoke, while open
BEGIN IMMEDIATE;
UPDATE setup_links SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL AND completed_at IS NULL AND expires_at > ?;
COMMIT;

-- SetupLinksStore.complete, while open
BEGIN IMMEDIATE;
UPDATE setup_links SET completed_at = ? WHERE id = ? AND revoked_at IS NULL AND completed_at IS NULL AND expires_at > ?;
COMMIT;

-- SetupLinksStore.expiredUnrecorded
SELECT setup_links.id, setup_links.tenant_id AS tenantId, setup_links.token_hash AS tokenHash, setup_links.intents, setup_links.email, setup_links.created_by AS createdBy, setup_links.created_at AS createdAt, setup_links.expires_at AS expiresAt, setup_links.last_opened_at AS lastOpenedAt, setup_links.completed_at AS completedAt, setup_links.revoked_at AS revokedAt, setup_links.expiry_recorded_at AS expiryRecordedAt FROM setup_links WHERE expiry_recorded_at IS NULL AND revoked_at IS NULL AND completed_at IS NULL AND expires_at <= ? ORDER BY expires_at, id LIMIT ?;

-- SetupLinksStore.recordExpiry, once
BEGIN IMMEDIATE;
UPDATE setup_links SET expiry_recorded_at = ? WHERE id = ? AND expiry_recorded_at IS NULL AND revoked_at IS NULL AND completed_at IS NULL AND expires_at <= ?;
COMMIT;

-- SetupLinksStore.tenantName
SELECT name FROM tenants WHERE id = ?;

-- SetupLinksStore.addItem
BEGIN IMMEDIATE;
INSERT INTO "setup_link_items" ("kind", "item_id", "link_id", "tenant_id", "created_at") VALUES (?, ?, ?, ?, ?);
COMMIT;

-- SetupLinksStore.madeBy
SELECT link_id AS linkId FROM setup_link_items WHERE kind = ? AND item_id = ?;

-- SetupLinksStore.madeThrough, by name
SELECT setup_link_items.kind, org_domains.name AS domainName, sso_connections.name AS connectionName FROM setup_link_items LEFT JOIN org_domains ON setup_link_items.kind = 'domain' AND org_domains.id = setup_link_items.item_id LEFT JOIN sso_connections ON setup_link_items.kind = 'sso_connection' AND sso_connections.id = setup_link_items.item_id WHERE setup_link_items.link_id = ? ORDER BY setup_link_items.created_at, setup_link_items.item_id;

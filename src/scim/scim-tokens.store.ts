import { createHash, randomBytes } from 'node:crypto';
import { AuditActor } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AtomicWriter } from '../database/atomic-writer';
import { ScimTokenEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { PreparedStatements, sqlTimestamp, timestamp } from '../database/prepared-statements';
import { scimEvents } from './scim-events';
import { SqlStore } from '../database/sql-store';

/** The secret's prefix, so that a leaked one is recognised by secret scanners and people. */
export const SECRET_PREFIX = 'scim_';
/** lastUsedAt is written at most this often per token: a request's look-up stays a read. */
export const LAST_USED_EVERY_MS = 60_000;

/** The token's look-up on every SCIM request: by the secret's hash, with its tenant's status. */
const SELECT_BY_HASH =
  'SELECT scim_tokens.id, scim_tokens.tenant_id AS tenantId, scim_tokens.last_used_at AS lastUsedAt, ' +
  'tenants.status AS tenantStatus FROM scim_tokens LEFT JOIN tenants ON tenants.id = scim_tokens.tenant_id ' +
  'WHERE scim_tokens.secret_hash = ?';
const SELECT_FOR_TENANT =
  'SELECT id, created_at AS createdAt, last_used_at AS lastUsedAt FROM scim_tokens WHERE tenant_id = ? ORDER BY created_at, id';
const TOUCH = 'UPDATE scim_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)';
const DELETE_TOKEN = 'DELETE FROM scim_tokens WHERE id = ? AND tenant_id = ?';

/** SHA-256 of the secret, hex: a 256-bit random secret needs no slow hash, and is found by it in one look-up. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export interface AuthenticatedToken {
  id: string;
  tenantId: string;
  tenantStatus: TenantStatus | null;
}

export interface ListedToken {
  id: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The SCIM tokens of each organisation (docs/scim.md): made with the secret shown once, kept as
 * its hash, and looked up in the database on every request, so that a revocation holds at once
 * on every instance.
 */
@SqlStore()
export class ScimTokensStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async create(tenantId: string, owner: AuditActor): Promise<{ id: string; secret: string; createdAt: Date }> {
    const secret = `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row: ScimTokenEntity = {
      id: this.ids.uuid(),
      tenantId,
      secretHash: hashSecret(secret),
      createdBy: owner.id,
      createdAt: this.clock.now(),
      lastUsedAt: null,
    };
    await this.writer.insert([
      [ScimTokenEntity, row],
      ...this.auditRows.of(scimEvents.tokenCreated(tenantId, row.id, owner)),
    ]);
    return { id: row.id, secret, createdAt: row.createdAt };
  }

  async list(tenantId: string): Promise<ListedToken[]> {
    const rows = await this.statements.rows(SELECT_FOR_TENANT, [tenantId]);
    return rows.map((row) => ({
      id: row.id as string,
      createdAt: timestamp(row.createdAt).toISOString(),
      lastUsedAt: row.lastUsedAt == null ? null : timestamp(row.lastUsedAt).toISOString(),
    }));
  }

  /** False when the organisation has no such token. */
  async revoke(tenantId: string, id: string, owner: AuditActor): Promise<boolean> {
    return this.writer.insertIfAll(this.auditRows.of(scimEvents.tokenRevoked(tenantId, id, owner)), [
      [DELETE_TOKEN, [id, tenantId]],
    ]);
  }

  /** The token whose secret this is, or null; notes its use (at most once a minute). */
  async authenticate(secret: string): Promise<AuthenticatedToken | null> {
    const row = await this.statements.first(SELECT_BY_HASH, [hashSecret(secret)]);
    if (!row) return null;
    const now = this.clock.now();
    const lastUsedAt = row.lastUsedAt == null ? null : timestamp(row.lastUsedAt);
    if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
      await this.statements.changes(TOUCH, [
        sqlTimestamp(now),
        row.id,
        sqlTimestamp(new Date(now.getTime() - LAST_USED_EVERY_MS)),
      ]);
    }
    return {
      id: row.id as string,
      tenantId: row.tenantId as string,
      tenantStatus: (row.tenantStatus as TenantStatus | null) ?? null,
    };
  }
}

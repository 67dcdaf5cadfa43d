import { NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter, Insert } from '../database/atomic-writer';
import { SetupLinkEntity, SetupLinkItemEntity, SetupItemKind } from '../database/entities/setup-link.entity';
import { TenantStatus } from '../database/entities/tenant.entity';
import { Leases } from '../database/leases';
import { PreparedStatements, Row, sqlTimestamp, timestamp } from '../database/prepared-statements';
import { SqlStore } from '../database/sql-store';

const COLUMNS =
  'setup_links.id, setup_links.tenant_id AS tenantId, setup_links.token_hash AS tokenHash, setup_links.intents, ' +
  'setup_links.email, setup_links.created_by AS createdBy, setup_links.created_at AS createdAt, ' +
  'setup_links.expires_at AS expiresAt, setup_links.last_opened_at AS lastOpenedAt, ' +
  'setup_links.completed_at AS completedAt, setup_links.revoked_at AS revokedAt, ' +
  'setup_links.expiry_recorded_at AS expiryRecordedAt';
/** A link with its organisation's name and status: what an opening and every setup request read. */
const WITH_TENANT = `SELECT ${COLUMNS}, tenants.name AS tenantName, tenants.status AS tenantStatus FROM setup_links LEFT JOIN tenants ON tenants.id = setup_links.tenant_id`;
const SELECT_BY_TOKEN_HASH = `${WITH_TENANT} WHERE setup_links.token_hash = ?`;
const SELECT_BY_ID = `${WITH_TENANT} WHERE setup_links.id = ?`;
const SELECT_OWN = `SELECT ${COLUMNS} FROM setup_links WHERE tenant_id = ? AND id = ?`;
/** The newest links of an organisation: open ones are at most SETUP_LINKS_PER_ORG, the rest history. */
export const LISTED_LINKS = 100;
const SELECT_FOR_TENANT = `SELECT ${COLUMNS} FROM setup_links WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT ${LISTED_LINKS}`;
const OPEN = 'revoked_at IS NULL AND completed_at IS NULL AND expires_at > ?';
const COUNT_OPEN = `(SELECT COUNT(*) FROM setup_links WHERE tenant_id = ? AND ${OPEN}) < ?`;
const OPENED = `UPDATE setup_links SET last_opened_at = ? WHERE id = ? AND ${OPEN}`;
const REVOKE = `UPDATE setup_links SET revoked_at = ? WHERE id = ? AND ${OPEN}`;
const COMPLETE = `UPDATE setup_links SET completed_at = ? WHERE id = ? AND ${OPEN}`;
const UNRECORDED_EXPIRY =
  'expiry_recorded_at IS NULL AND revoked_at IS NULL AND completed_at IS NULL AND expires_at <= ?';
const RECORD_EXPIRY = `UPDATE setup_links SET expiry_recorded_at = ? WHERE id = ? AND ${UNRECORDED_EXPIRY}`;
const SELECT_EXPIRED = `SELECT ${COLUMNS} FROM setup_links WHERE ${UNRECORDED_EXPIRY} ORDER BY expires_at, id LIMIT ?`;
const SELECT_ITEM = 'SELECT link_id AS linkId FROM setup_link_items WHERE kind = ? AND item_id = ?';
/** What a link made, as its completion's e-mail names it: a claim by its name, a connection by its name. */
const SELECT_MADE =
  'SELECT setup_link_items.kind, org_domains.name AS domainName, sso_connections.name AS connectionName FROM setup_link_items ' +
  "LEFT JOIN org_domains ON setup_link_items.kind = 'domain' AND org_domains.id = setup_link_items.item_id " +
  "LEFT JOIN sso_connections ON setup_link_items.kind = 'sso_connection' AND sso_connections.id = setup_link_items.item_id " +
  'WHERE setup_link_items.link_id = ? ORDER BY setup_link_items.created_at, setup_link_items.item_id';
const SELECT_TENANT_NAME = 'SELECT name FROM tenants WHERE id = ?';

/** A link as an opening and a setup session read it: with its organisation. */
export interface SetupLinkWithTenant extends SetupLinkEntity {
  tenantName: string | null;
  /** null: the organisation is gone. */
  tenantStatus: TenantStatus | null;
}

const date = (value: unknown): Date | null => (value == null ? null : timestamp(value));

function linkOf(row: Row): SetupLinkEntity {
  return {
    id: row.id as string,
    tenantId: row.tenantId as string,
    tokenHash: row.tokenHash as string,
    intents: row.intents as string,
    email: (row.email as string | null) ?? null,
    createdBy: row.createdBy as string,
    createdAt: timestamp(row.createdAt),
    expiresAt: timestamp(row.expiresAt),
    lastOpenedAt: date(row.lastOpenedAt),
    completedAt: date(row.completedAt),
    revokedAt: date(row.revokedAt),
    expiryRecordedAt: date(row.expiryRecordedAt),
  };
}

const withTenant = (row: Row): SetupLinkWithTenant => ({
  ...linkOf(row),
  tenantName: (row.tenantName as string | null) ?? null,
  tenantStatus: (row.tenantStatus as TenantStatus | null) ?? null,
});

/**
 * The SQL of setup links (docs/setup-links.md). Every change is a compare-and-set on the link's
 * state, written with its audit rows in one transaction; the reads of an opening and of a setup
 * session are causal (PreparedStatements.first), so that a revocation holds at once on every instance.
 */
@SqlStore()
export class SetupLinksStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
    private readonly leases: Leases,
  ) {}

  /**
   * A new link, unless its organisation has `limit` open ones at `now`: false then, and nothing
   * written. The organisation's lease row is written first, so that parallel creations count in turn.
   */
  async insert(link: SetupLinkEntity, events: NewAuditEvent[], extra: Insert[], limit: number): Promise<boolean> {
    const lease = `setup-links/${link.tenantId}`;
    await this.leases.ensure(lease);
    return this.writer.insertIfAll(
      [[SetupLinkEntity, link], ...events.flatMap((event) => this.auditRows.of(event)), ...extra],
      [this.leases.written(lease, [COUNT_OPEN, [link.tenantId, sqlTimestamp(link.createdAt), limit]])],
    );
  }

  async findByTokenHash(tokenHash: string): Promise<SetupLinkWithTenant | null> {
    const row = await this.statements.first(SELECT_BY_TOKEN_HASH, [tokenHash], true);
    return row ? withTenant(row) : null;
  }

  async findById(id: string): Promise<SetupLinkWithTenant | null> {
    const row = await this.statements.first(SELECT_BY_ID, [id], true);
    return row ? withTenant(row) : null;
  }

  async findOwn(tenantId: string, id: string): Promise<SetupLinkEntity | null> {
    const row = await this.statements.first(SELECT_OWN, [tenantId, id]);
    return row ? linkOf(row) : null;
  }

  /** Newest first, at most LISTED_LINKS. */
  async listOwn(tenantId: string): Promise<SetupLinkEntity[]> {
    return (await this.statements.rows(SELECT_FOR_TENANT, [tenantId])).map(linkOf);
  }

  /** The link opened at `now`, while it is open; false otherwise. */
  opened(link: SetupLinkEntity, now: Date, events: NewAuditEvent[]): Promise<boolean> {
    return this.change(OPENED, link, now, events);
  }

  /** Revoked at `now`, while it is open; false otherwise. */
  revoke(link: SetupLinkEntity, now: Date, events: NewAuditEvent[]): Promise<boolean> {
    return this.change(REVOKE, link, now, events);
  }

  /** Completed at `now`, while it is open; false otherwise. */
  complete(link: SetupLinkEntity, now: Date, events: NewAuditEvent[], extra: Insert[]): Promise<boolean> {
    return this.change(COMPLETE, link, now, events, extra);
  }

  /** Its expiry recorded once, with its event: false when it was already, or the link is not expired. */
  recordExpiry(link: SetupLinkEntity, now: Date, events: NewAuditEvent[]): Promise<boolean> {
    return this.change(RECORD_EXPIRY, link, now, events);
  }

  /** Links past their time whose expiry is not recorded yet, the oldest first. */
  async expiredUnrecorded(now: Date, limit: number): Promise<SetupLinkEntity[]> {
    return (await this.statements.rows(SELECT_EXPIRED, [sqlTimestamp(now), limit])).map(linkOf);
  }

  /** The organisation's name; null when it has none, or is gone. */
  async tenantName(tenantId: string): Promise<string | null> {
    const row = await this.statements.first(SELECT_TENANT_NAME, [tenantId]);
    return (row?.name as string | null | undefined) || null;
  }

  /** What the link made: recorded after the change it names. */
  async addItem(item: SetupLinkItemEntity): Promise<void> {
    await this.writer.insert([[SetupLinkItemEntity, item]]);
  }

  /** The link that made this domain claim or connection, if one did. */
  async madeBy(kind: SetupItemKind, itemId: string): Promise<string | null> {
    const row = await this.statements.first(SELECT_ITEM, [kind, itemId]);
    return row ? (row.linkId as string) : null;
  }

  /** What the link made that still exists, oldest first, by kind and name. */
  async madeThrough(linkId: string): Promise<{ kind: SetupItemKind; name: string }[]> {
    const rows = await this.statements.rows(SELECT_MADE, [linkId]);
    return rows.flatMap((row) => {
      const name = (row.domainName ?? row.connectionName) as string | null;
      return name === null ? [] : [{ kind: row.kind as SetupItemKind, name }];
    });
  }

  private change(
    sql: string,
    link: SetupLinkEntity,
    now: Date,
    events: NewAuditEvent[],
    extra: Insert[] = [],
  ): Promise<boolean> {
    const at = sqlTimestamp(now);
    return this.writer.insertIfAll(
      [...events.flatMap((event) => this.auditRows.of(event)), ...extra],
      [[sql, [at, link.id, at]]],
    );
  }
}

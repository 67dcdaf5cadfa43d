import { Optional } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { AuditActor, auditEvents, NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { emailKey } from '../common/email-comparison';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { InvitationEmailOutboxEntity, InvitationEntity, InvitationRoleEntity } from '../database/entities';
import { InvitationStatus } from '../database/entities/invitation.entity';
import { AtomicWriter, HoldingQuery, Insert, RequiredUpdate } from '../database/atomic-writer';
import { PreparedStatements, Row, sqlTimestamp, timestamp } from '../database/prepared-statements';
import { tenantIsOpenSql } from '../database/tenant-status-reader';
import { InvitationEmail } from '../mail/invitation-mailer';
import { newOutboxRow } from '../mail/outbox/invitation-outbox';
import { OPEN_STATUSES } from './invitation';
import { SqlStore } from '../database/sql-store';

/** At most this many tenants' names are kept in memory (TENANT_NAME_CACHE_SECONDS). */
export const TENANT_NAME_CACHE_SIZE = 10_000;

const SELECT_INVITATION =
  'SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at FROM tenant_invitations WHERE id = ?';
const SELECT_TENANT_NAME = 'SELECT name FROM tenants WHERE id = ?';
/** By the (email_key, status, expires_at) index, each with its organisation's name and status: one statement. */
const SELECT_PENDING_TO =
  'SELECT i.id, i.tenant_id, i.email, i.role, i.status, i.expires_at, i.invited_by, i.created_at, ' +
  't.name AS tenant_name, t.status AS tenant_status FROM tenant_invitations i JOIN tenants t ON t.id = i.tenant_id ' +
  "WHERE i.email_key = ? AND i.status = 'pending' AND i.expires_at >= ? ORDER BY i.created_at, i.id";
const OPEN = `(${OPEN_STATUSES.map((status) => `'${status}'`).join(', ')})`;
/** The compare-and-sets of the invitation's changes of status (AtomicWriter). */
const EXPIRE_IF_PENDING = "UPDATE tenant_invitations SET status = 'expired' WHERE id = ? AND status = 'pending'";
const ACCEPT_IF_OPEN =
  `UPDATE tenant_invitations SET status = 'accepted' WHERE id = ? AND status IN ${OPEN} AND expires_at >= ? ` +
  `AND ${tenantIsOpenSql('tenant_invitations.tenant_id')}`;
/**
 * The `invitation.accepted` event written from the invitation's row, as auditEvents.invitationAccepted
 * builds it in code (no actor, the invitation named by its e-mail, data role and invitedBy), when
 * the compare-and-set before it changed the row.
 */
const AUDIT_ACCEPTED_FROM_ROW =
  'INSERT INTO audit_events (id, type, occurred_at, tenant_id, actor_id, actor_email, target_type, target_id, ' +
  "target_email, data) SELECT ?, 'invitation.accepted', ?, tenant_id, NULL, NULL, 'invitation', NULL, email, " +
  "JSON_OBJECT('role', role, 'invitedBy', invited_by) FROM tenant_invitations WHERE id = ? AND @changed = 1";
/** Keys looked up per statement: a shorter list is padded with its last key, so that there is one statement to prepare. */
export const INVITED_KEYS_PER_READ = 100;
/** Read from the (tenant_id, email_key, status, expires_at) index alone (migration AddInvitationsEmailKey). */
const SELECT_INVITED_KEYS =
  "SELECT email_key FROM tenant_invitations WHERE tenant_id = ? AND status = 'pending' AND expires_at >= ? " +
  `AND email_key IN (${Array(INVITED_KEYS_PER_READ).fill('?').join(', ')})`;
const REVOKE_IF_OPEN = `UPDATE tenant_invitations SET status = 'revoked' WHERE id = ? AND status IN ${OPEN}`;

/**
 * The invitation rows, with parameterised queries only. Each change of an invitation is written in
 * one transaction with its audit event (AtomicWriter).
 */
/** What a new invitation's write depends on: the invitation it replaces, or a query that must find nothing. */
export type InvitationWriteCondition = { replacing: string } | { unlessFound: HoldingQuery };

/** An accept tried first (acceptAtOnce): whether it went through, and the invitation as it is after it (null: none). */
export interface AcceptAttempt {
  accepted: boolean;
  invitation: InvitationEntity | null;
}

@SqlStore()
export class InvitationsStore {
  /**
   * A name read once is reused for a while: validating an invitation is then one read. A rename
   * through PATCH /api/admin/tenants/{id} drops it on the instance that renamed (forgetTenantName);
   * the lifetime bounds how long the old name can show on the other instances, and a name edited
   * in the database; the size bounds the memory. Without a config (unit tests), nothing is kept.
   */
  private readonly tenantNames?: LRUCache<string, { name: string | null }>;
  /** See acceptAtOnce. */
  private readonly acceptsAtOnce: boolean;

  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
    private readonly ids: IdGenerator,
    @Optional() config?: AppConfig,
  ) {
    const seconds = config?.tenantNameCacheSeconds ?? 0;
    if (seconds > 0) this.tenantNames = new LRUCache({ max: TENANT_NAME_CACHE_SIZE, ttl: seconds * 1_000 });
    this.acceptsAtOnce = dataSource.options.type === 'mysql' && (config?.webhooks.urls.length ?? 0) === 0;
  }

  /**
   * Stores the invitation, the e-mail to send for it, the custom roles it carries (docs/roles.md)
   * and its audit event, all or none; the mail outbox delivers the e-mail afterwards. With
   * `replacing` (a resend), that invitation is revoked in the same transaction, and only if it is
   * still pending or expired: false, and nothing stored, when a parallel request accepted, revoked
   * or replaced it first. With `unlessFound`, nothing is stored, and the answer is false, when that
   * query finds a row in the same transaction.
   */
  async create(
    invitation: InvitationEntity,
    email: InvitationEmail,
    inviter: AuditActor,
    condition?: InvitationWriteCondition,
    roles: string[] = [],
  ): Promise<boolean> {
    if (condition && 'replacing' in condition) {
      const event = auditEvents.invitationResent(invitation, inviter, roles);
      return this.writer.insert(this.rowsOf(invitation, email, roles, event), revokeIfOpen(condition.replacing));
    }
    const rows = this.rowsOf(invitation, email, roles, auditEvents.invitationCreated(invitation, inviter, roles));
    return condition ? this.writer.insertUnless(rows, condition.unlessFound) : this.writer.insert(rows);
  }

  /**
   * Stores several new invitations, each as create stores one (the invitation, its e-mail, its
   * roles and its `invitation.created` event), in one transaction: all of them or none. The caller
   * bounds how many.
   */
  async createMany(
    invitations: { invitation: InvitationEntity; email: InvitationEmail; roles?: string[] }[],
    inviter: AuditActor,
  ): Promise<void> {
    await this.writer.insert(
      invitations.flatMap(({ invitation, email, roles = [] }) =>
        this.rowsOf(invitation, email, roles, auditEvents.invitationCreated(invitation, inviter, roles)),
      ),
    );
  }

  /**
   * Which of `keys` (emailKey of each address) belong to one of the tenant's invitations that may
   * still be accepted at `now` (pending and not expired): only those addresses are read, whatever
   * the number of the tenant's invitations.
   */
  async findAcceptableKeys(tenantId: string, keys: string[], now: Date): Promise<Set<string>> {
    const found = new Set<string>();
    const at = sqlTimestamp(now);
    for (let start = 0; start < keys.length; start += INVITED_KEYS_PER_READ) {
      const batch = keys.slice(start, start + INVITED_KEYS_PER_READ);
      const padded = [...batch, ...Array<string>(INVITED_KEYS_PER_READ - batch.length).fill(batch[batch.length - 1])];
      for (const row of await this.statements.rows(SELECT_INVITED_KEYS, [tenantId, at, ...padded]))
        found.add(row.email_key as string);
    }
    return found;
  }

  private rowsOf(
    invitation: InvitationEntity,
    email: InvitationEmail,
    roles: string[],
    event: NewAuditEvent,
  ): Insert[] {
    return [
      [InvitationEntity, { ...invitation, emailKey: emailKey(invitation.email) }],
      ...roles.map((roleKey): Insert => [
        InvitationRoleEntity,
        { invitationId: invitation.id, roleKey, tenantId: invitation.tenantId } satisfies InvitationRoleEntity,
      ]),
      [InvitationEmailOutboxEntity, newOutboxRow(this.ids.uuid(), invitation, email)],
      ...this.auditRows.of(event),
    ];
  }

  /** The invitation whose id is exactly `id`, or null. */
  /** The invitations to the address that may still be accepted at `now`, oldest first, with their organisation's name and status. */
  async pendingTo(
    email: string,
    now: Date,
  ): Promise<{ invitation: InvitationEntity; tenantName: string | null; tenantStatus: string }[]> {
    const rows = await this.statements.rows(SELECT_PENDING_TO, [emailKey(email), sqlTimestamp(now)]);
    return rows.map((row) => ({
      invitation: toInvitation(row),
      tenantName: row.tenant_name as string | null,
      tenantStatus: row.tenant_status as string,
    }));
  }

  /** The operator CLI's invitations:expire: the invitation's expiry moved, its status left as it is. */
  async setExpiry(id: string, expiresAt: Date): Promise<void> {
    await this.statements.changes('UPDATE tenant_invitations SET expires_at = ? WHERE id = ?', [
      sqlTimestamp(expiresAt),
      id,
    ]);
  }

  async findById(id: string): Promise<InvitationEntity | null> {
    // Causal on Galera: an invitation created through another node a moment ago is found.
    const row = await this.statements.first(SELECT_INVITATION, [id], true);
    // MySQL pads trailing spaces even in a binary collation; a token is opaque, so only the exact id counts.
    return row?.id === id ? toInvitation(row) : null;
  }

  /** The tenant's name; null when the tenant or its name is absent (see tenantDisplayName). */
  async findTenantName(tenantId: string): Promise<string | null> {
    const cached = this.tenantNames?.get(tenantId);
    if (cached) return cached.name;
    const row = await this.statements.first(SELECT_TENANT_NAME, [tenantId]);
    const name = (row?.name as string | null | undefined) ?? null;
    this.tenantNames?.set(tenantId, { name });
    return name;
  }

  /** Drops the tenant's cached name, after a rename: this instance shows the new one at once. */
  forgetTenantName(tenantId: string): void {
    this.tenantNames?.delete(tenantId);
  }

  /**
   * Stores `expired` on a pending invitation; an invitation accepted meanwhile keeps its status.
   * True when this call changed it, so that each expiry is counted (and recorded) once.
   */
  async markExpired(invitation: InvitationEntity): Promise<boolean> {
    const event = auditEvents.invitationExpired(invitation);
    return this.writer.insert(this.auditRows.of(event), [EXPIRE_IF_PENDING, [invitation.id]]);
  }

  /**
   * Accepts the invitation unless it is already accepted, revoked or expired at `now`, or its tenant
   * is suspended or being deleted, in one conditional UPDATE with its audit event: of parallel calls
   * for one invitation, exactly one gets true (and records the event), and a revocation or a
   * suspension that lands between the read and this update wins.
   */
  async accept(invitation: InvitationEntity, now: Date): Promise<boolean> {
    const event = auditEvents.invitationAccepted(invitation);
    return this.writer.insert(this.auditRows.of(event), acceptIfOpen(invitation.id, now));
  }

  /**
   * The accept of the invitation with this id, tried first and its row read after, with its audit
   * event, in one round trip (compare `accept`, which needs the row before): whether it was
   * accepted, and the invitation as it is then (null when there is none), which tells a refusal.
   * Undefined where this cannot be done: on SQLite, whose reads cost no round trip; with webhook
   * URLs, whose deliveries are built in code from the event; and for an id ending in a space, which
   * MySQL's comparison would match to the id without it.
   */
  async acceptAtOnce(id: string, now: Date): Promise<AcceptAttempt | undefined> {
    if (!this.acceptsAtOnce || id.endsWith(' ')) return undefined;
    const at = sqlTimestamp(now);
    const { changed, rows } = await this.writer.updateThenRead(
      acceptIfOpen(id, now),
      [[AUDIT_ACCEPTED_FROM_ROW, [this.ids.uuid(), at, id]]],
      [SELECT_INVITATION, [id]],
    );
    const row = rows[0];
    return { accepted: changed, invitation: row?.id === id ? toInvitation(row) : null };
  }

  /**
   * Up to `take` invitations of a tenant whose effective status (a pending one past its expiry is
   * expired) is one of `statuses` (all when absent), by e-mail then id in code-point order
   * (compareKeys), strictly after `after` (after every invitation to `after.email` when it has no
   * id): keyset paging. Each stored status asked for is read from its own range of the
   * (tenant_id, status, email, id) index, in the list's order, and the ranges merged (UNION ALL),
   * so that a page reads about as many rows as it returns whatever the other statuses hold.
   */
  async listForTenant(
    tenantId: string,
    statuses: InvitationStatus[] | undefined,
    now: Date,
    after: { email: string; id?: string } | undefined,
    take: number,
  ): Promise<InvitationEntity[]> {
    const isMysql = this.dataSource.options.type === 'mysql';
    const keyset =
      after === undefined
        ? { sql: '', parameters: [] }
        : after.id === undefined
          ? { sql: ' AND email > ?', parameters: [after.email] }
          : // `>=` first, so that the index seeks to the cursor instead of filtering every row before it.
            { sql: ' AND email >= ? AND (email > ? OR id > ?)', parameters: [after.email, after.email, after.id] };
    const limit = ` ORDER BY email, id LIMIT ${Math.trunc(take)}`;
    const at = sqlTimestamp(now);
    const arms = storedRanges(statuses).map(({ status, expiry }) => {
      // MariaDB takes `ref` on the index's leading columns rather than the range to the cursor
      // without the hint (see forceIndex); the range of expired pending rows is left to the
      // optimizer, which can read it from the (tenant_id, status, expires_at) index instead.
      const index = status === undefined ? INDEX_BY_EMAIL : expiry === 'late' ? undefined : INDEX_BY_STATUS;
      const from = `FROM tenant_invitations${isMysql && index ? ` FORCE INDEX (${index})` : ''}`;
      const filter = status === undefined ? '' : ` AND status = ?${EXPIRY_SQL[expiry]}`;
      return {
        sql: `${SELECT_LISTED} ${from} WHERE tenant_id = ?${filter}${keyset.sql}${limit}`,
        parameters: [
          tenantId,
          ...(status === undefined ? [] : [status]),
          ...(expiry === 'any' ? [] : [at]),
          ...keyset.parameters,
        ],
      };
    });
    const sql =
      arms.length === 1
        ? arms[0].sql
        : arms.map((arm, i) => `SELECT * FROM (${arm.sql}) AS range_${i}`).join(' UNION ALL ') + limit;
    const rows = await this.statements.rows(
      sql,
      arms.flatMap((arm) => arm.parameters),
    );
    return rows.map(toInvitation);
  }

  /**
   * Revokes a pending or expired invitation in one conditional UPDATE with its audit event: of
   * parallel revokes, accepts and resends of one invitation, exactly one changes it. True when this call did.
   */
  async revoke(invitation: InvitationEntity, actor: AuditActor): Promise<boolean> {
    const event = auditEvents.invitationRevoked(invitation, actor);
    return this.writer.insert(this.auditRows.of(event), revokeIfOpen(invitation.id));
  }
}

const toInvitation = (row: Row): InvitationEntity => ({
  id: row.id as string,
  tenantId: row.tenant_id as string,
  email: row.email as string,
  role: row.role as string,
  status: row.status as InvitationStatus,
  expiresAt: timestamp(row.expires_at),
  invitedBy: row.invited_by as string,
  createdAt: timestamp(row.created_at),
});

/** The compare-and-set of an acceptance (by the spec's accept, or by a join): open, and not expired at `now`. */
export const acceptIfOpen = (id: string, now: Date): RequiredUpdate => [ACCEPT_IF_OPEN, [id, sqlTimestamp(now)]];

/** The compare-and-set of a revocation (by revoke, or by a resend that replaces the invitation). */
const revokeIfOpen = (id: string): RequiredUpdate => [REVOKE_IF_OPEN, [id]];

const SELECT_LISTED = 'SELECT id, tenant_id, email, role, status, expires_at, invited_by, created_at';
const INDEX_BY_EMAIL = 'IDX_tenant_invitations_tenant_email_id';
const INDEX_BY_STATUS = 'IDX_tenant_invitations_tenant_status_email_id';

/** Of a stored status: the rows of every expiry, or those not expired (`live`) or expired (`late`) at a time. */
type Expiry = 'any' | 'live' | 'late';
const EXPIRY_SQL: Record<Expiry, string> = { any: '', live: ' AND expires_at >= ?', late: ' AND expires_at < ?' };

/** The stored rows of each effective status. */
const STORED: Record<InvitationStatus, [InvitationStatus, Expiry][]> = {
  pending: [['pending', 'live']],
  expired: [
    ['expired', 'any'],
    ['pending', 'late'],
  ],
  accepted: [['accepted', 'any']],
  revoked: [['revoked', 'any']],
};

/**
 * The ranges of stored rows that hold the effective statuses asked for, one per stored status;
 * a single range with no status when that is every row.
 */
function storedRanges(statuses: InvitationStatus[] | undefined): { status?: InvitationStatus; expiry: Expiry }[] {
  if (statuses === undefined) return [{ expiry: 'any' }];
  const ranges = new Map<InvitationStatus, Expiry>();
  for (const [status, expiry] of statuses.flatMap((effective) => STORED[effective])) {
    const known = ranges.get(status);
    ranges.set(status, known === undefined || known === expiry ? expiry : 'any');
  }
  const all = [...ranges.values()].filter((expiry) => expiry === 'any').length === 4;
  return all ? [{ expiry: 'any' }] : [...ranges].map(([status, expiry]) => ({ status, expiry }));
}

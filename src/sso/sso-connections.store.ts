import { DataSource } from 'typeorm';
import { NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter, HoldingQuery, Insert, RequiredUpdate } from '../database/atomic-writer';
import { isUniqueViolation } from '../database/unique-violation';
import { SsoAttemptEntity, SsoConnectionEntity, SsoEnforcementEntity } from '../database/entities';
import { Leases } from '../database/leases';
import { SqlStore } from '../database/sql-store';
import { PreparedStatements, sqlTimestamp, timestamp } from '../database/prepared-statements';

/** The columns that a connection's changes write, by property. */
const COLUMNS = {
  name: 'name',
  status: 'status',
  jit: 'jit',
  defaultRole: 'default_role',
  allowIdpInitiated: 'allow_idp_initiated',
  issuer: 'issuer',
  clientId: 'client_id',
  clientSecret: 'client_secret',
  scopes: 'scopes',
  tokenEndpointAuthMethod: 'token_endpoint_auth_method',
  metadataUrl: 'metadata_url',
  wantAssertionsSigned: 'want_assertions_signed',
  discovery: 'discovery',
  discoveredAt: 'discovered_at',
  activatedAt: 'activated_at',
  primaryAt: 'primary_at',
  updatedAt: 'updated_at',
} as const satisfies Partial<Record<keyof SsoConnectionEntity, string>>;
export type ConnectionChanges = Partial<Pick<SsoConnectionEntity, keyof typeof COLUMNS>>;

/** A connection's last sign-in, read from its attempts. */
export interface LastLogin {
  at: Date;
  result: string;
}

/** What a connection's row holds that its answer shows beside it: its last sign-in, whether it is the primary. */
export interface ConnectionView {
  connection: SsoConnectionEntity;
  lastLogin: LastLogin | null;
  primary: boolean;
}

/**
 * The primary of active connections: the one an owner made primary last, else the one active the
 * longest (the first to become active). Derived from times, never a flag, so that two changes at
 * once cannot make two primaries.
 */
export function primaryAmong(active: SsoConnectionEntity[]): SsoConnectionEntity | null {
  const time = (date: Date | null) => date?.getTime() ?? 0;
  const ranked = [...active].sort(
    (a, b) =>
      time(b.primaryAt) - time(a.primaryAt) ||
      time(a.activatedAt) - time(b.activatedAt) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return ranked[0] ?? null;
}

/** How many attempts a connection shows. */
export const ATTEMPTS_SHOWN = 100;

/** The SQL of an organisation's single sign-on connections; every change is written with its audit rows. */
@SqlStore()
export class SsoConnectionsStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
    private readonly leases: Leases,
  ) {}

  private get connections() {
    return this.dataSource.getRepository(SsoConnectionEntity);
  }

  findById(id: string): Promise<SsoConnectionEntity | null> {
    return this.connections.findOneBy({ id });
  }

  findOwn(tenantId: string, id: string): Promise<SsoConnectionEntity | null> {
    return this.connections.findOneBy({ tenantId, id });
  }

  listOwn(tenantId: string): Promise<SsoConnectionEntity[]> {
    return this.connections.find({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  countOwn(tenantId: string): Promise<number> {
    return this.connections.countBy({ tenantId });
  }

  /** The organisation's primary connection (primaryAmong its active ones), or null; an organisation has a few. */
  async primaryOf(tenantId: string): Promise<SsoConnectionEntity | null> {
    return primaryAmong(await this.connections.findBy({ tenantId, status: 'active' }));
  }

  /** The connections with their last sign-in and whether each is the primary. */
  async views(connections: SsoConnectionEntity[]): Promise<ConnectionView[]> {
    const primaries = new Map<string, string | null>();
    const views: ConnectionView[] = [];
    for (const connection of connections) {
      if (!primaries.has(connection.tenantId))
        primaries.set(connection.tenantId, (await this.primaryOf(connection.tenantId))?.id ?? null);
      const last = await this.statements.first(
        'SELECT at, result FROM sso_attempts WHERE connection_id = ? ORDER BY at DESC, id DESC LIMIT 1',
        [connection.id],
      );
      views.push({
        connection,
        lastLogin: last ? { at: timestamp(last.at), result: String(last.result) } : null,
        primary: primaries.get(connection.tenantId) === connection.id,
      });
    }
    return views;
  }

  /**
   * A new connection, unless the organisation has `limit` already: false then, and nothing written.
   * The organisation's lease row is written first, so that parallel creations count one after another.
   */
  async insert(connection: SsoConnectionEntity, events: NewAuditEvent[], limit: number): Promise<boolean> {
    const lease = `sso-connections/${connection.tenantId}`;
    await this.leases.ensure(lease);
    return this.writer.insertIfAll(
      [[SsoConnectionEntity, connection], ...this.eventRows(events)],
      [
        this.leases.written(lease),
        this.leases.written(lease, [
          '(SELECT COUNT(*) FROM sso_connections WHERE tenant_id = ?) < ?',
          [connection.tenantId, limit],
        ]),
      ],
    );
  }

  /**
   * The changes, only while the row is as read (its updated_at), with the events and `alongside`'s
   * rows (SsoActivations'); false when it changed meanwhile.
   */
  async update(
    connection: SsoConnectionEntity,
    changes: ConnectionChanges,
    events: NewAuditEvent[],
    alongside: Insert[] = [],
  ): Promise<boolean> {
    const entries = Object.entries(changes) as [keyof typeof COLUMNS, unknown][];
    const set = entries.map(([property]) => `${COLUMNS[property]} = ?`).join(', ');
    const values = entries.map(([, value]) => (value instanceof Date ? sqlTimestamp(value) : value));
    const required: RequiredUpdate = [
      `UPDATE sso_connections SET ${set} WHERE id = ? AND updated_at = ?`,
      [...values, connection.id, sqlTimestamp(connection.updatedAt)],
    ];
    return this.writer.insertIfAll([...this.eventRows(events), ...alongside], [required]);
  }

  /** The connection, its people's links, its pending sign-ins and its attempts, with the events. */
  async remove(connection: SsoConnectionEntity, events: NewAuditEvent[]): Promise<boolean> {
    return this.writer.insertIfAll(
      this.eventRows(events),
      [['DELETE FROM sso_connections WHERE id = ?', [connection.id]]],
      [
        ['DELETE FROM sso_identities WHERE connection_id = ?', [connection.id]],
        ['DELETE FROM sso_requests WHERE connection_id = ?', [connection.id]],
        ['DELETE FROM sso_attempts WHERE connection_id = ?', [connection.id]],
      ],
    );
  }

  /** Every SAML connection that is not off: a few per organisation that uses SAML, read once a day. */
  samlConnections(): Promise<SsoConnectionEntity[]> {
    return this.connections.find({
      where: [
        { type: 'saml', status: 'active' },
        { type: 'saml', status: 'draft' },
      ],
    });
  }

  /**
   * The warning that the connection's last certificate expires at `notAfter`, with its events, unless
   * it was given already (by this instance or another): false then, and nothing written.
   */
  warnCertificateExpiry(connection: SsoConnectionEntity, notAfter: Date, events: NewAuditEvent[]): Promise<boolean> {
    const at = sqlTimestamp(notAfter);
    return this.writer.insertIfAll(this.eventRows(events), [
      [
        'UPDATE sso_connections SET expiry_warned_for = ? WHERE id = ? AND (expiry_warned_for IS NULL OR expiry_warned_for <> ?)',
        [at, connection.id, at],
      ],
    ]);
  }

  /** Whether the organisation requires single sign-on of its members. */
  async isEnforced(tenantId: string): Promise<boolean> {
    return (
      (await this.statements.first('SELECT tenant_id FROM sso_enforcements WHERE tenant_id = ?', [tenantId])) !==
      undefined
    );
  }

  /**
   * Single sign-on required from now on, with the events, only while the organisation has an active
   * connection (read in the same transaction): false otherwise, and nothing written. Already
   * required: true, and nothing written.
   */
  async enforce(enforcement: SsoEnforcementEntity, events: NewAuditEvent[]): Promise<boolean> {
    const noActiveConnection: HoldingQuery = [
      "SELECT 1 AS held FROM tenants WHERE id = ? AND NOT EXISTS (SELECT 1 FROM sso_connections WHERE tenant_id = ? AND status = 'active')",
      [enforcement.tenantId, enforcement.tenantId],
    ];
    try {
      return await this.writer.insertUnless(
        [[SsoEnforcementEntity, enforcement], ...this.eventRows(events)],
        noActiveConnection,
      );
    } catch (error) {
      if (isUniqueViolation(error)) return true;
      throw error;
    }
  }

  /** Single sign-on no longer required, with the events; false when it was not. */
  async unenforce(tenantId: string, events: NewAuditEvent[]): Promise<boolean> {
    return this.writer.insertIfAll(this.eventRows(events), [
      ['DELETE FROM sso_enforcements WHERE tenant_id = ?', [tenantId]],
    ]);
  }

  /** The last ATTEMPTS_SHOWN attempts, newest first. */
  attempts(connectionId: string): Promise<SsoAttemptEntity[]> {
    return this.dataSource
      .getRepository(SsoAttemptEntity)
      .find({ where: { connectionId }, order: { at: 'DESC', id: 'DESC' }, take: ATTEMPTS_SHOWN });
  }

  private eventRows(events: NewAuditEvent[]): Insert[] {
    return events.flatMap((event) => this.auditRows.of(event));
  }
}

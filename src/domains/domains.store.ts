import { DataSource, In } from 'typeorm';
import { NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter, Insert, RequiredUpdate } from '../database/atomic-writer';
import { JoinRequestEntity, OrgDomainEntity, OrgDomainRoleEntity } from '../database/entities';
import { DomainStatus } from '../database/entities/org-domain.entity';
import { Leases } from '../database/leases';
import { PreparedStatements, sqlTimestamp, timestamp } from '../database/prepared-statements';
import { isUniqueViolation } from '../database/unique-violation';
import { SqlStore } from '../database/sql-store';
import { RoleDefinition, roleUnchanged } from '../permissions/grants.store';

/** The columns that a claim's changes write, by property. */
const COLUMNS: Partial<Record<keyof OrgDomainEntity, string>> = {
  status: 'status',
  joinMode: 'join_mode',
  token: 'token',
  tokenIssuedAt: 'token_issued_at',
  lastCheckAt: 'last_check_at',
  lastCheckResult: 'last_check_result',
  verifiedAt: 'verified_at',
  graceEndsAt: 'grace_ends_at',
  nextCheckAt: 'next_check_at',
  heldName: 'held_name',
};
export type DomainChanges = Partial<Pick<OrgDomainEntity, keyof typeof COLUMNS & keyof OrgDomainEntity>>;

const sqlValue = (value: unknown) => (value instanceof Date ? sqlTimestamp(value) : value);

/** What a claim's write did: see DomainsStore.insert. */
export type ClaimWrite = 'inserted' | 'duplicate' | 'limit';

/** A joinable organisation as the look-up by e-mail domain finds it. */
export interface JoinableRow {
  tenantId: string;
  tenantName: string | null;
  domainId: string;
  domain: string;
  joinMode: string;
  status: DomainStatus;
  graceEndsAt: Date | null;
  /** The organisation requires single sign-on of its members (docs/sso.md, "Enforcement"). */
  ssoEnforced: boolean;
}

/** The SQL of verified domains and join requests; every change is written with its audit rows, in one transaction. */
@SqlStore()
export class DomainsStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
    private readonly leases: Leases,
  ) {}

  private get domains() {
    return this.dataSource.getRepository(OrgDomainEntity);
  }

  private get requests() {
    return this.dataSource.getRepository(JoinRequestEntity);
  }

  findOwn(tenantId: string, name: string): Promise<OrgDomainEntity | null> {
    return this.domains.findOneBy({ tenantId, name });
  }

  findById(id: string): Promise<OrgDomainEntity | null> {
    return this.domains.findOneBy({ id });
  }

  listOwn(tenantId: string): Promise<OrgDomainEntity[]> {
    return this.domains.find({ where: { tenantId }, order: { name: 'ASC' } });
  }

  countOwn(tenantId: string): Promise<number> {
    return this.domains.countBy({ tenantId });
  }

  /** The claims of a name across organisations, oldest first. */
  listByName(name: string): Promise<OrgDomainEntity[]> {
    return this.domains.find({ where: { name }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Whether another organisation holds the name: its claim is verified or failing. */
  async heldByAnother(name: string, tenantId: string): Promise<boolean> {
    const holder = await this.domains.findOneBy({ heldName: name });
    return holder !== null && holder.tenantId !== tenantId;
  }

  /**
   * A new claim, unless the organisation has `limit` claims already: `limit` then, and nothing
   * written; `duplicate` when it has the name already (a parallel claim). The transaction first
   * writes the organisation's claims row (Leases.written), then counts its claims: so parallel
   * claims of one organisation run one after another (a row lock on MySQL, BEGIN IMMEDIATE on
   * SQLite, a write-set conflict on Galera that the writer runs again) and the count is exact.
   */
  async insert(domain: OrgDomainEntity, events: NewAuditEvent[], limit: number): Promise<ClaimWrite> {
    const { tenantId } = domain;
    const claims = `domain-claims/${tenantId}`;
    await this.leases.ensure(claims);
    try {
      const written = await this.writer.insertIfAll(
        [[OrgDomainEntity, domain], ...this.eventRows(events)],
        [
          this.leases.written(claims),
          this.leases.written(claims, [
            '(SELECT COUNT(*) FROM org_domains WHERE tenant_id = ?) < ?',
            [tenantId, limit],
          ]),
        ],
      );
      return written ? 'inserted' : 'limit';
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
  }

  /**
   * The claim's compare-and-set: written only while its status and token are as read, with the
   * events. False when it changed meanwhile. A name that another claim holds fails with a unique
   * violation (isUniqueViolation), and nothing is written.
   */
  async update(domain: OrgDomainEntity, changes: DomainChanges, events: NewAuditEvent[]): Promise<boolean> {
    return this.writer.insertIfAll(this.eventRows(events), [this.updateStatement(domain, changes)]);
  }

  updateStatement(domain: OrgDomainEntity, changes: DomainChanges): RequiredUpdate {
    const entries = Object.entries(changes) as [keyof OrgDomainEntity, unknown][];
    const set = entries.map(([property]) => `${COLUMNS[property]} = ?`).join(', ');
    return [
      `UPDATE org_domains SET ${set} WHERE id = ? AND status = ? AND token = ?`,
      [...entries.map(([, value]) => sqlValue(value)), domain.id, domain.status, domain.token],
    ];
  }

  /** The custom roles each of these claims gives the people who join by it (docs/domains.md), sorted. */
  async defaultRolesOf(domainIds: string[]): Promise<Map<string, string[]>> {
    const roles = new Map(domainIds.map((id) => [id, [] as string[]]));
    if (!domainIds.length) return roles;
    const rows = await this.statements.rows(
      'SELECT domain_id AS domainId, role_key AS roleKey FROM org_domain_roles ' +
        `WHERE domain_id IN (${domainIds.map(() => '?').join(', ')}) ORDER BY domain_id, role_key`,
      domainIds,
    );
    for (const row of rows) roles.get(row.domainId as string)?.push(row.roleKey as string);
    return roles;
  }

  /**
   * The claim's default roles become `roles`, each at the version read (a role deleted or changed
   * meanwhile makes it false, and nothing is written), with the events.
   */
  async replaceDefaultRoles(domain: OrgDomainEntity, roles: RoleDefinition[], events: NewAuditEvent[]) {
    const { id: domainId, tenantId } = domain;
    return this.writer.insertIfAll(
      [
        ...roles.map((role): Insert => [OrgDomainRoleEntity, { domainId, roleKey: role.key, tenantId }]),
        ...this.eventRows(events),
      ],
      roles.map((role) => roleUnchanged(tenantId, role)),
      [['DELETE FROM org_domain_roles WHERE domain_id = ?', [domainId]]],
    );
  }

  /** The claim is deleted and its pending requests rejected; how many were. */
  async remove(domain: OrgDomainEntity, now: Date, events: (closed: JoinRequestEntity[]) => NewAuditEvent[]) {
    const pending = await this.requests.findBy({ tenantId: domain.tenantId, domain: domain.name, status: 'pending' });
    const required: RequiredUpdate[] = [
      ['DELETE FROM org_domains WHERE id = ? AND status = ? AND token = ?', [domain.id, domain.status, domain.token]],
      ...pending.map((request) => this.decideStatement(request.id, 'rejected', now)),
    ];
    const written = await this.writer.insertIfAll(this.eventRows(events(pending)), required, [
      ['DELETE FROM org_domain_roles WHERE domain_id = ?', [domain.id]],
    ]);
    return written ? pending : null;
  }

  /**
   * Claims the re-checks that are due, up to `limit`: each is moved to `next` by a conditional
   * UPDATE, so that of several instances exactly one does each check.
   */
  async claimDue(now: Date, next: Date, limit: number): Promise<OrgDomainEntity[]> {
    const due = await this.statements.rows(
      "SELECT id, next_check_at FROM org_domains WHERE next_check_at <= ? AND status IN ('verified', 'failing') " +
        `ORDER BY next_check_at LIMIT ${Number(limit)}`,
      [sqlTimestamp(now)],
    );
    const claimed: string[] = [];
    for (const row of due) {
      const changed = await this.statements.changes(
        'UPDATE org_domains SET next_check_at = ? WHERE id = ? AND next_check_at = ?',
        [sqlTimestamp(next), row.id, sqlTimestamp(timestamp(row.next_check_at))],
      );
      if (changed === 1) claimed.push(String(row.id));
    }
    return claimed.length ? this.domains.findBy({ id: In(claimed) }) : [];
  }

  /** The organisations whose claim on this exact name is verified or failing, with a join mode. */
  async joinable(name: string): Promise<JoinableRow[]> {
    const rows = await this.statements.rows(
      'SELECT d.id AS domain_id, d.tenant_id, d.name, d.join_mode, d.status, d.grace_ends_at, t.name AS tenant_name, ' +
        'EXISTS (SELECT 1 FROM sso_enforcements e WHERE e.tenant_id = d.tenant_id) AS sso_enforced ' +
        "FROM org_domains d JOIN tenants t ON t.id = d.tenant_id WHERE d.name = ? AND d.status IN ('verified', 'failing') " +
        "AND d.join_mode <> 'off' AND t.status = 'active' ORDER BY t.name, d.tenant_id",
      [name],
    );
    return rows.map((row) => ({
      tenantId: String(row.tenant_id),
      tenantName: row.tenant_name === null ? null : String(row.tenant_name),
      domainId: String(row.domain_id),
      domain: String(row.name),
      joinMode: String(row.join_mode),
      status: row.status as DomainStatus,
      graceEndsAt: row.grace_ends_at === null ? null : timestamp(row.grace_ends_at),
      ssoEnforced: Number(row.sso_enforced) === 1,
    }));
  }

  findPendingRequest(tenantId: string, userId: string): Promise<JoinRequestEntity | null> {
    return this.requests.findOneBy({ pendingKey: pendingKey(tenantId, userId) });
  }

  findRequest(tenantId: string, id: string): Promise<JoinRequestEntity | null> {
    return this.requests.findOneBy({ tenantId, id });
  }

  listRequests(tenantId: string, status: string): Promise<JoinRequestEntity[]> {
    return this.requests.find({ where: { tenantId, status: status as never }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** A new pending request; false when one is pending already (a parallel ask). */
  async insertRequest(request: JoinRequestEntity, events: NewAuditEvent[]): Promise<boolean> {
    try {
      return await this.writer.insert([[JoinRequestEntity, request], ...this.eventRows(events)]);
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Closes a pending request; false when it was not pending. */
  decide(id: string, status: 'approved' | 'rejected', now: Date, events: NewAuditEvent[]): Promise<boolean> {
    return this.writer.insertIfAll(this.eventRows(events), [this.decideStatement(id, status, now)]);
  }

  decideStatement(id: string, status: 'approved' | 'rejected', now: Date): RequiredUpdate {
    return [
      "UPDATE join_requests SET status = ?, pending_key = NULL, decided_at = ? WHERE id = ? AND status = 'pending'",
      [status, sqlTimestamp(now), id],
    ];
  }

  private eventRows(events: NewAuditEvent[]): Insert[] {
    return events.flatMap((event) => this.auditRows.of(event));
  }
}

export const pendingKey = (tenantId: string, userId: string) => `${tenantId}:${userId}`;

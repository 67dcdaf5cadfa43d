import { DataSource } from 'typeorm';
import { NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter } from '../database/atomic-writer';
import { AccountRows } from '../identity/identity-store';
import { SsoAssertionEntity, SsoAttemptEntity, SsoIdentityEntity, SsoRequestEntity } from '../database/entities';
import { SqlStore } from '../database/sql-store';
import { PreparedStatements, sqlTimestamp } from '../database/prepared-statements';
import { isUniqueViolation } from '../database/unique-violation';

/** An organisation that holds an e-mail domain (verified, or failing within its grace), and is active. */
export interface DomainHolder {
  tenantId: string;
  tenantName: string | null;
}

/** Why a pending sign-in could not be used: the state is unknown, another connection's, used or expired. */
export type UnusableRequest = 'unknown' | 'another connection' | 'already used' | 'expired';

/** The SQL of sign-ins: pending requests (used once), the people known by subject, attempts, domain holders. */
@SqlStore()
export class SsoSignInsStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
  ) {}

  /**
   * The active organisation that holds `name` (its claim verified, or failing within the grace), or
   * null. One organisation at most holds a name (org_domains.held_name is unique).
   */
  async holderOf(name: string, now: Date): Promise<DomainHolder | null> {
    const row = await this.statements.first(
      'SELECT d.tenant_id, t.name AS tenant_name FROM org_domains d JOIN tenants t ON t.id = d.tenant_id ' +
        "WHERE d.held_name = ? AND t.status = 'active' AND (d.status = 'verified' OR " +
        "(d.status = 'failing' AND (d.grace_ends_at IS NULL OR d.grace_ends_at > ?)))",
      [name, sqlTimestamp(now)],
    );
    if (!row) return null;
    return { tenantId: String(row.tenant_id), tenantName: row.tenant_name === null ? null : String(row.tenant_name) };
  }

  /** Whether the tenant is active: the only one whose people sign in. */
  async tenantActive(tenantId: string): Promise<{ name: string | null } | null> {
    const row = await this.statements.first("SELECT name FROM tenants WHERE id = ? AND status = 'active'", [tenantId]);
    return row ? { name: row.name === null ? null : String(row.name) } : null;
  }

  /** A new pending sign-in; requests that expired a day ago go meanwhile. */
  async insertRequest(request: SsoRequestEntity): Promise<void> {
    const dayAgo = new Date(request.createdAt.getTime() - 86_400_000);
    await this.statements.changes('DELETE FROM sso_requests WHERE expires_at < ?', [sqlTimestamp(dayAgo)]);
    await this.writer.insert([[SsoRequestEntity, request]]);
  }

  /** The sign-in sent with this state (a SAML AuthnRequest's ID), used or not. */
  findRequest(state: string): Promise<SsoRequestEntity | null> {
    return this.dataSource.getRepository(SsoRequestEntity).findOneBy({ state });
  }

  /**
   * A SAML assertion remembered until it expires; false when it was already (a replay, here or on
   * another instance, or the second of two copies at once: the primary key lets one in). Assertions
   * that expired go meanwhile.
   */
  async rememberAssertion(assertion: SsoAssertionEntity, now: Date): Promise<boolean> {
    await this.statements.changes('DELETE FROM sso_assertions WHERE expires_at < ?', [sqlTimestamp(now)]);
    try {
      await this.writer.insert([[SsoAssertionEntity, assertion]]);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Whether `state` names a test sign-in sent for this connection and not yet answered. */
  async isPendingTest(state: string | undefined, connectionId: string): Promise<boolean> {
    if (state === undefined) return false;
    const row = await this.statements.first(
      "SELECT 1 AS pending FROM sso_requests WHERE state = ? AND connection_id = ? AND purpose = 'test' AND used_at IS NULL",
      [state, connectionId],
    );
    return row !== undefined;
  }

  /**
   * The pending sign-in of `state` for this connection, marked used in the same statement, so that of
   * two callbacks with one state exactly one gets it; or why there is none.
   */
  async useRequest(
    state: string,
    connectionId: string,
    now: Date,
  ): Promise<{ request: SsoRequestEntity } | { unusable: UnusableRequest }> {
    const used = await this.statements.changes(
      'UPDATE sso_requests SET used_at = ? WHERE state = ? AND connection_id = ? AND used_at IS NULL AND expires_at > ?',
      [sqlTimestamp(now), state, connectionId, sqlTimestamp(now)],
    );
    const row = await this.dataSource.getRepository(SsoRequestEntity).findOneBy({ state });
    if (used === 1 && row) return { request: row };
    if (!row) return { unusable: 'unknown' };
    if (row.connectionId !== connectionId) return { unusable: 'another connection' };
    if (row.usedAt !== null) return { unusable: 'already used' };
    return { unusable: 'expired' };
  }

  findIdentity(connectionId: string, subject: string): Promise<SsoIdentityEntity | null> {
    return this.dataSource.getRepository(SsoIdentityEntity).findOneBy({ connectionId, subject });
  }

  /**
   * The person's link to the connection's subject, made at the first sign-in (a parallel first
   * sign-in that made it first is kept), its address and time of last sign-in updated after.
   * `addressOf`: the account rows (a store in the service's database) whose address takes the
   * provider's new one in the same transaction (a unique violation when another account holds it, and
   * nothing written).
   */
  async signedIn(identity: SsoIdentityEntity, exists: boolean, addressOf: AccountRows | null = null): Promise<void> {
    if (!exists) {
      try {
        await this.writer.insert([[SsoIdentityEntity, identity]]);
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    const { userId, email, lastLoginAt, connectionId, subject } = identity;
    await this.writer.insertIfAll(
      [],
      [
        [
          'UPDATE sso_identities SET email = ?, last_login_at = ? WHERE connection_id = ? AND subject = ?',
          [email, sqlTimestamp(lastLoginAt), connectionId, subject],
        ],
        ...(addressOf ? [addressOf.addressChanged(userId, email)] : []),
      ],
    );
  }

  /** An attempt with its events, written together. */
  async recordAttempt(attempt: SsoAttemptEntity, events: NewAuditEvent[]): Promise<void> {
    await this.writer.insert([[SsoAttemptEntity, attempt], ...events.flatMap((event) => this.auditRows.of(event))]);
  }
}

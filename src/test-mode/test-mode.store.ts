import { InvitationEmailOutboxEntity } from '../database/entities';
import { PreparedStatements, Row, timestamp } from '../database/prepared-statements';
import { SqlStore } from '../database/sql-store';

/** The most e-mails that one mailbox read answers. */
export const MAILBOX_SIZE = 50;

/** The outbox rows of the invitations to an address (compared lower-cased here, exactly by the caller), newest first. */
const SELECT_MAILBOX =
  'SELECT o.payload, o.sent_at, i.email FROM invitation_email_outbox o ' +
  'JOIN tenant_invitations i ON i.id = o.invitation_id WHERE LOWER(i.email) = ? ' +
  `ORDER BY o.created_at DESC, o.id DESC LIMIT ${MAILBOX_SIZE}`;

/** `!` escapes LIKE's wildcards the same way in both dialects (a backslash does not). */
const likePrefix = (prefix: string): string => `${prefix.replace(/[!%_]/g, '!$&')}%`;
const SELECT_TENANTS_NAMED = (limit: number) =>
  `SELECT id, name FROM tenants WHERE name LIKE ? ESCAPE '!' ORDER BY id LIMIT ${Math.trunc(limit)}`;

const list = (count: number) => Array(count).fill('?').join(', ');
/** Children first and the tenant last: a batch cut short leaves its tenants to be found again. */
const removeTenantRows = (count: number): string[] => [
  `DELETE FROM invitation_email_outbox WHERE invitation_id IN (SELECT id FROM tenant_invitations WHERE tenant_id IN (${list(count)}))`,
  `DELETE FROM tenant_invitations WHERE tenant_id IN (${list(count)})`,
  `DELETE FROM membership_grants WHERE tenant_id IN (${list(count)})`,
  `DELETE FROM audit_events WHERE tenant_id IN (${list(count)})`,
  `DELETE FROM tenants WHERE id IN (${list(count)})`,
];

export interface MailboxRow {
  recipient: string;
  outboxRow: Pick<InvitationEmailOutboxEntity, 'payload' | 'sentAt'>;
}

/** The rows that test mode reads and removes for real (docs/test-mode.md), with parameterised queries. */
@SqlStore()
export class TestModeStore {
  constructor(private readonly statements: PreparedStatements) {}

  /** The outbox rows of the invitations to `lowerCasedAddress`, newest first. */
  async mailbox(lowerCasedAddress: string): Promise<MailboxRow[]> {
    const rows = await this.statements.rows(SELECT_MAILBOX, [lowerCasedAddress]);
    return rows.map((row: Row) => ({
      recipient: row.email as string,
      outboxRow: { payload: row.payload as string, sentAt: row.sent_at === null ? null : timestamp(row.sent_at) },
    }));
  }

  /** Up to `limit` tenants whose name starts with `prefix` (LIKE may ignore case: the caller compares exactly). */
  async tenantsNamed(prefix: string, limit: number): Promise<{ id: string; name: string }[]> {
    const rows = await this.statements.rows(SELECT_TENANTS_NAMED(limit), [likePrefix(prefix)]);
    return rows.map((row) => ({ id: row.id as string, name: row.name as string }));
  }

  /** Deletes the tenants with their invitations, e-mails, membership grants and audit events. */
  async removeTenants(ids: string[]): Promise<void> {
    for (const sql of removeTenantRows(ids.length)) await this.statements.changes(sql, ids);
  }
}

import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { emailKey } from '../src/common/email-comparison';

/** The events that said, until this release, who an organisation took out and who came back. */
const FACT_EVENTS = ['member.removed', 'member.deactivated', 'member.reactivated', 'member.joined', 'user.deleted'];
const PAGE = 5_000;

interface EventRow {
  id: string;
  type: string;
  tenant_id: string | null;
  target_id: string;
  target_email: string | null;
  occurred_at: Date | string;
  data: string;
}
interface Fact {
  tenantId: string;
  userId: string;
  emailKey: string;
  reason: string;
  at: Date | string;
}

/**
 * Removals kept as facts (src/memberships): that an organisation removed a person, SCIM deactivated
 * or deleted them, or an operator deleted their account, is a row of `membership_removals`, read by
 * the domain join, join requests and the joinable list, so that the audit trail's purge changes no
 * answer. The rows are made from the audit trail as it is now (the latest of each membership's
 * removals, unless SCIM or a join brought the person back after it); `join_requests` gets an index by
 * person, for the organisations a deleted account was asking to join.
 */
export class CreateMembershipRemovals1765900000000 implements MigrationInterface {
  name = 'CreateMembershipRemovals1765900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'membership_removals',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact, isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '128', collation: exact, isPrimary: true },
          { name: 'email_key', type: 'varchar', length: '64' },
          { name: 'reason', type: 'varchar', length: '20' },
          { name: 'removed_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'IDX_membership_removals_user', columnNames: ['user_id'] }],
      }),
    );
    await queryRunner.createIndex(
      'join_requests',
      new TableIndex({ name: 'IDX_join_requests_user_status', columnNames: ['user_id', 'status'] }),
    );
    await this.factsFromTheAuditTrail(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('join_requests', 'IDX_join_requests_user_status');
    await queryRunner.dropTable('membership_removals');
  }

  private async factsFromTheAuditTrail(queryRunner: QueryRunner): Promise<void> {
    const facts = new Map<string, Fact>();
    const key = (tenantId: string, userId: string) => JSON.stringify([tenantId, userId]);
    const types = FACT_EVENTS.map(() => '?').join(', ');
    let after: { at: Date | string; id: string } | null = null;
    for (;;) {
      const rows: EventRow[] = await queryRunner.query(
        'SELECT id, type, tenant_id, target_id, target_email, occurred_at, data FROM audit_events ' +
          `WHERE type IN (${types}) AND target_id IS NOT NULL` +
          (after ? ' AND (occurred_at > ? OR (occurred_at = ? AND id > ?))' : '') +
          ` ORDER BY occurred_at, id LIMIT ${PAGE}`,
        after ? [...FACT_EVENTS, after.at, after.at, after.id] : FACT_EVENTS,
      );
      for (const row of rows) {
        const fact = (tenantId: string, reason: string): Fact => ({
          tenantId,
          userId: row.target_id,
          emailKey: emailKey(row.target_email ?? ''),
          reason,
          at: row.occurred_at,
        });
        if (row.type === 'user.deleted') {
          const tenants: { tenant_id: string }[] = await queryRunner.query(
            "SELECT tenant_id FROM join_requests WHERE user_id = ? AND status = 'pending'",
            [row.target_id],
          );
          for (const tenantId of new Set([row.tenant_id, ...tenants.map((t) => t.tenant_id)]))
            if (tenantId) facts.set(key(tenantId, row.target_id), fact(tenantId, 'account_deleted'));
          continue;
        }
        if (!row.tenant_id) continue;
        if (row.type === 'member.reactivated' || row.type === 'member.joined') {
          facts.delete(key(row.tenant_id, row.target_id));
          continue;
        }
        const viaScim = (JSON.parse(row.data || '{}') as { via?: string }).via === 'scim';
        const reason = row.type === 'member.deactivated' ? 'scim_deactivated' : viaScim ? 'scim_deleted' : 'removed';
        facts.set(key(row.tenant_id, row.target_id), fact(row.tenant_id, reason));
      }
      if (rows.length < PAGE) break;
      const last = rows[rows.length - 1];
      after = { at: last.occurred_at, id: last.id };
    }
    const all = [...facts.values()];
    for (let start = 0; start < all.length; start += 500) {
      const batch = all.slice(start, start + 500);
      await queryRunner.query(
        'INSERT INTO membership_removals (tenant_id, user_id, email_key, reason, removed_at) VALUES ' +
          batch.map(() => '(?, ?, ?, ?, ?)').join(', '),
        batch.flatMap((fact) => [fact.tenantId, fact.userId, fact.emailKey, fact.reason, fact.at]),
      );
    }
  }
}

import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { emailKey } from '../src/common/email-comparison';

const BATCH = 500;

/** TypeORM adds and drops a column on SQLite by rebuilding the table: SQLite's own ALTER TABLE changes nothing else (see AddUsersEmailKey). */
const isSqlite = (queryRunner: QueryRunner) => queryRunner.connection.options.type !== 'mysql';

/**
 * `tenant_invitations.email_key`: emailKey(email), as `users.email_key`, so that POST
 * /api/org/invitations/bulk finds which of its addresses the tenant has already invited by
 * reading those addresses only (the index on tenant, key, status and expiry), not every pending
 * invitation of the tenant to compare them in code. Every existing row is back-filled in keyset
 * batches, one UPDATE per batch; the column stays nullable (the store writes it on every new row).
 * Dialect-neutral, like CreateTables.
 */
export class AddInvitationsEmailKey1764800000000 implements MigrationInterface {
  name = 'AddInvitationsEmailKey1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (isSqlite(queryRunner)) {
      await queryRunner.query('ALTER TABLE "tenant_invitations" ADD COLUMN "email_key" varchar(64)');
    } else {
      await queryRunner.addColumn(
        'tenant_invitations',
        new TableColumn({
          name: 'email_key',
          type: 'varchar',
          length: '64',
          collation: 'utf8mb4_bin',
          isNullable: true,
        }),
      );
    }
    // Plain DML that both dialects run: the entity's metadata may describe a later shape of the table.
    let after = '';
    for (;;) {
      const rows: { id: string; email: string }[] = await queryRunner.query(
        `SELECT id, email FROM tenant_invitations WHERE id > ? ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      if (rows.length) {
        const cases = rows.map(() => 'WHEN ? THEN ?').join(' ');
        await queryRunner.query(
          `UPDATE tenant_invitations SET email_key = CASE id ${cases} END WHERE id IN (${rows.map(() => '?').join(', ')})`,
          [...rows.flatMap((row) => [row.id, emailKey(row.email)]), ...rows.map((row) => row.id)],
        );
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1].id;
    }
    await queryRunner.createIndex(
      'tenant_invitations',
      new TableIndex({
        name: 'IDX_tenant_invitations_tenant_email_key',
        columnNames: ['tenant_id', 'email_key', 'status', 'expires_at'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('tenant_invitations', 'IDX_tenant_invitations_tenant_email_key');
    if (isSqlite(queryRunner)) await queryRunner.query('ALTER TABLE "tenant_invitations" DROP COLUMN "email_key"');
    else await queryRunner.dropColumn('tenant_invitations', 'email_key');
  }
}

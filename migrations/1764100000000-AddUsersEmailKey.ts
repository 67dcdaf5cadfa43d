import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { emailKey } from '../src/common/email-comparison';

const BATCH = 500;

/**
 * TypeORM adds and drops a column on SQLite by rebuilding the table from what it reads back,
 * and that leaves out `COLLATE NOCASE` on `users.email`; SQLite's own ALTER TABLE keeps it.
 */
const isSqlite = (queryRunner: QueryRunner) => queryRunner.connection.options.type !== 'mysql';

/**
 * `users.email_key` (issue 15): the e-mail comparison made in the application, not by the
 * column's collation, which differs between SQLite and MySQL. Every existing row is back-filled;
 * no row is merged or dropped, and the key is not unique, since rows that the old collation kept
 * apart may now compare equal. Dialect-neutral, like CreateTables.
 */
export class AddUsersEmailKey1764100000000 implements MigrationInterface {
  name = 'AddUsersEmailKey1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (isSqlite(queryRunner)) {
      await queryRunner.query('ALTER TABLE "users" ADD COLUMN "email_key" varchar(64)');
    } else {
      await queryRunner.addColumn(
        'users',
        new TableColumn({
          name: 'email_key',
          type: 'varchar',
          length: '64',
          collation: 'utf8mb4_bin',
          isNullable: true,
        }),
      );
    }
    // Keyset batches, so that a large table is never read into memory at once. Plain DML that
    // both dialects run: the entity's metadata may describe a later shape of the table.
    let after = '';
    for (;;) {
      const rows: { id: string; email: string }[] = await queryRunner.query(
        `SELECT id, email FROM users WHERE id > ? ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      for (const row of rows) {
        await queryRunner.query('UPDATE users SET email_key = ? WHERE id = ?', [emailKey(row.email), row.id]);
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1].id;
    }
    await queryRunner.createIndex('users', new TableIndex({ name: 'IDX_users_email_key', columnNames: ['email_key'] }));
    await queryRunner.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_tenant_email_key', columnNames: ['tenant_id', 'email_key'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('users', 'IDX_users_tenant_email_key');
    await queryRunner.dropIndex('users', 'IDX_users_email_key');
    if (isSqlite(queryRunner)) await queryRunner.query('ALTER TABLE "users" DROP COLUMN "email_key"');
    else await queryRunner.dropColumn('users', 'email_key');
  }
}

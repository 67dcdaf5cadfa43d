import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const isMysql = (queryRunner: QueryRunner) => queryRunner.connection.options.type === 'mysql';

/**
 * One order of e-mails for every list (issue 12, GET /api/org/people merges members and
 * invitations): code-point order, the order of SQLite's BINARY, MySQL's utf8mb4_bin and
 * compareKeys (common/paging), so that the database and the code agree. Each list reads it
 * from an index, so that a page costs the same whatever the tenant's size.
 *
 * - `tenant_invitations.email` is already BINARY on SQLite; on MySQL it took the database's
 *   default collation (case- and accent-insensitive): it becomes utf8mb4_bin. Nothing looks
 *   invitations up by e-mail; they are stored lower-cased.
 * - `users.email` keeps its case-insensitive collation (its unique index and the look-ups of rows
 *   without `email_key` rely on it): the order comes from a second index. SQLite indexes the
 *   column under BINARY; MySQL cannot give an index its own collation, so a virtual column
 *   `email_order`, the e-mail in utf8mb4_bin, carries it (the entity does not map it: it is
 *   read only in ORDER BY and WHERE). Raw SQL: the Table API can give neither.
 */
export class OrderEmailsByCodePoint1764500000000 implements MigrationInterface {
  name = 'OrderEmailsByCodePoint1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (isMysql(queryRunner)) {
      await queryRunner.query(
        'ALTER TABLE `tenant_invitations` MODIFY `email` varchar(320) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL',
      );
      await queryRunner.query(
        'ALTER TABLE `users` ADD COLUMN `email_order` varchar(320) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin AS (`email`) VIRTUAL, ' +
          'ADD INDEX `IDX_users_tenant_email_order` (`tenant_id`, `email_order`, `id`)',
      );
    } else {
      await queryRunner.query(
        'CREATE INDEX "IDX_users_tenant_email_order" ON "users" ("tenant_id", "email" COLLATE BINARY, "id")',
      );
    }
    // With the id, so that SQLite too reads (e-mail, id) order from the index (InnoDB appends the key anyway).
    await queryRunner.createIndex(
      'tenant_invitations',
      new TableIndex({ name: 'IDX_tenant_invitations_tenant_email_id', columnNames: ['tenant_id', 'email', 'id'] }),
    );
    await queryRunner.dropIndex('tenant_invitations', 'IDX_tenant_invitations_tenant_email');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'tenant_invitations',
      new TableIndex({ name: 'IDX_tenant_invitations_tenant_email', columnNames: ['tenant_id', 'email'] }),
    );
    await queryRunner.dropIndex('tenant_invitations', 'IDX_tenant_invitations_tenant_email_id');
    if (isMysql(queryRunner)) {
      await queryRunner.query(
        'ALTER TABLE `users` DROP INDEX `IDX_users_tenant_email_order`, DROP COLUMN `email_order`',
      );
      await queryRunner.query('ALTER TABLE `tenant_invitations` MODIFY `email` varchar(320) NOT NULL');
    } else {
      await queryRunner.query('DROP INDEX "IDX_users_tenant_email_order"');
    }
  }
}

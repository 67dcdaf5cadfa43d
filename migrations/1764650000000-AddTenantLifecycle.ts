import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/**
 * TypeORM adds and drops a column on SQLite by rebuilding the table from what it reads back;
 * SQLite's own ALTER TABLE changes nothing else (see AddUsersEmailKey).
 */
const isSqlite = (queryRunner: QueryRunner) => queryRunner.connection.options.type !== 'mysql';

/**
 * The tenant lifecycle: suspend, reactivate, delete (docs/tenant-lifecycle.md).
 * - `tenants.status_before_suspension`: what reactivation gives back (`active` or `pending_owner`).
 * - `tenants.deleted_at`: set when a deletion has finished; a tenant with status `deleted` and no
 *   `deleted_at` is still being deleted, and the next DELETE finishes it.
 * - Two indexes that answer GET /api/admin/tenants/{id}'s counts, and find the batches of a deletion,
 *   from the index alone: members by role, open invitations by status and expiry.
 * Dialect-neutral, like CreateTables.
 */
export class AddTenantLifecycle1764650000000 implements MigrationInterface {
  name = 'AddTenantLifecycle1764650000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (isSqlite(queryRunner)) {
      await queryRunner.query('ALTER TABLE "tenants" ADD COLUMN "status_before_suspension" varchar(32)');
      await queryRunner.query('ALTER TABLE "tenants" ADD COLUMN "deleted_at" datetime(3)');
    } else {
      await queryRunner.addColumns('tenants', [
        new TableColumn({ name: 'status_before_suspension', type: 'varchar', length: '32', isNullable: true }),
        new TableColumn({ name: 'deleted_at', type: 'datetime', precision: 3, isNullable: true }),
      ]);
    }
    // Raw SQL on `users`, in words both dialects read: on MySQL the Table API reads the table back
    // first, which trips on its generated column `email_order` (OrderEmailsByCodePoint).
    await queryRunner.query('CREATE INDEX IDX_users_tenant_role ON users (tenant_id, role)');
    await queryRunner.createIndex(
      'tenant_invitations',
      new TableIndex({
        name: 'IDX_tenant_invitations_tenant_status_expires',
        columnNames: ['tenant_id', 'status', 'expires_at'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('tenant_invitations', 'IDX_tenant_invitations_tenant_status_expires');
    await queryRunner.query(
      isSqlite(queryRunner) ? 'DROP INDEX IDX_users_tenant_role' : 'DROP INDEX IDX_users_tenant_role ON users',
    );
    if (isSqlite(queryRunner)) {
      await queryRunner.query('ALTER TABLE "tenants" DROP COLUMN "deleted_at"');
      await queryRunner.query('ALTER TABLE "tenants" DROP COLUMN "status_before_suspension"');
    } else {
      await queryRunner.dropColumns('tenants', ['deleted_at', 'status_before_suspension']);
    }
  }
}

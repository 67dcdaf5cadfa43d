import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';

const id = (name: string, length: number, collation?: string): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  collation,
});
const timestamp = (name: string): TableColumnOptions => ({ name, type: 'datetime', precision: 3 });

/**
 * The three tables that operators and tests rely on (docs/deploying.md). Dialect-neutral: the same
 * migration runs on SQLite and MySQL.
 */
export class CreateTables1763800000000 implements MigrationInterface {
  name = 'CreateTables1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // E-mail look-ups must be case-insensitive and still use an index: NOCASE on SQLite,
    // a case-insensitive collation on MySQL/MariaDB.
    const mysql = queryRunner.connection.options.type === 'mysql';
    const caseInsensitive = mysql ? 'utf8mb4_unicode_ci' : 'NOCASE';
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = mysql ? 'utf8mb4_bin' : undefined;

    await queryRunner.createTable(
      new Table({
        name: 'tenants',
        columns: [
          { ...id('id', 36, exact), isPrimary: true },
          { name: 'name', type: 'varchar', length: '255', isNullable: true },
          { name: 'type', type: 'varchar', length: '32' },
          { name: 'status', type: 'varchar', length: '32' },
          timestamp('created_at'),
        ],
        indices: [{ name: 'IDX_tenants_created_at', columnNames: ['created_at'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'tenant_invitations',
        columns: [
          { ...id('id', 36, exact), isPrimary: true },
          id('tenant_id', 128, exact),
          { name: 'email', type: 'varchar', length: '320' },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'status', type: 'varchar', length: '16' },
          timestamp('expires_at'),
          id('invited_by', 128, exact),
          timestamp('created_at'),
        ],
        indices: [{ name: 'IDX_tenant_invitations_tenant_email', columnNames: ['tenant_id', 'email'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          { ...id('id', 128, exact), isPrimary: true },
          { name: 'email', type: 'varchar', length: '320', collation: caseInsensitive },
          { name: 'platform_role', type: 'varchar', length: '32', isNullable: true },
          { name: 'user_type', type: 'varchar', length: '32', isNullable: true },
          { ...id('tenant_id', 128, exact), isNullable: true },
          { name: 'role', type: 'varchar', length: '16', isNullable: true },
          timestamp('created_at'),
        ],
        indices: [
          { name: 'UQ_users_email', columnNames: ['email'], isUnique: true },
          { name: 'IDX_users_tenant_email', columnNames: ['tenant_id', 'email'] },
          { name: 'IDX_users_platform_role_id', columnNames: ['platform_role', 'id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('users');
    await queryRunner.dropTable('tenant_invitations');
    await queryRunner.dropTable('tenants');
  }
}

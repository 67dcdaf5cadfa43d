import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The custom roles that a verified domain gives the people who join by it (docs/domains.md, "Default
 * roles"): (domain, role key), with the tenant beside them. The index by role serves the role's
 * delete, which takes the role off the domains too (or gives them `reassignTo` instead).
 */
export class CreateOrgDomainRoles1766100000000 implements MigrationInterface {
  name = 'CreateOrgDomainRoles1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Keys compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'org_domain_roles',
        columns: [
          { name: 'domain_id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'role_key', type: 'varchar', length: '40', collation: exact, isPrimary: true },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact },
        ],
        indices: [{ name: 'IDX_org_domain_roles_role', columnNames: ['tenant_id', 'role_key', 'domain_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('org_domain_roles');
  }
}

import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The custom roles that a SCIM group maps to (docs/scim.md, "Roles from groups"), beside the base
 * role of its row in scim_role_mappings: (tenant, group key, role key). The index by role serves the
 * role's delete, which takes the role out of the mapping too (or maps the groups to `reassignTo`).
 */
export class CreateScimRoleMappingRoles1765800000000 implements MigrationInterface {
  name = 'CreateScimRoleMappingRoles1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Keys compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'scim_role_mapping_roles',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact, isPrimary: true },
          { name: 'group_key', type: 'varchar', length: '255', collation: exact, isPrimary: true },
          { name: 'role_key', type: 'varchar', length: '40', collation: exact, isPrimary: true },
        ],
        indices: [{ name: 'IDX_scim_role_mapping_roles_role', columnNames: ['tenant_id', 'role_key', 'group_key'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('scim_role_mapping_roles');
  }
}

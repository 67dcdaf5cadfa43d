import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Custom roles and permissions (docs/roles.md): the product's permission catalogue, each
 * organisation's roles and their permissions, the roles its members hold and the roles its
 * invitations carry. Every read on a request's path is a range of a primary key or an index:
 * a member's roles by (tenant, user), a role's holders by (tenant, role), the roles that carry a
 * permission by the permission.
 */
export class CreateRoles1765420000000 implements MigrationInterface {
  name = 'CreateRoles1765420000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids and keys compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    const key = (name: string, length: number, isPrimary = false) => ({
      name,
      type: 'varchar',
      length: String(length),
      collation: exact,
      isPrimary,
    });
    await queryRunner.createTable(
      new Table({
        name: 'product_permissions',
        columns: [
          key('permission_key', 100, true),
          { name: 'description', type: 'varchar', length: '500', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'org_roles',
        columns: [
          key('tenant_id', 128, true),
          key('role_key', 40, true),
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'description', type: 'varchar', length: '500', isNullable: true },
          { name: 'version', type: 'int', default: 0 },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'org_role_permissions',
        columns: [key('tenant_id', 128, true), key('role_key', 40, true), key('permission', 100, true)],
        indices: [{ name: 'IDX_org_role_permissions_permission', columnNames: ['permission'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'member_roles',
        columns: [
          key('tenant_id', 128, true),
          key('user_id', 128, true),
          key('role_key', 40, true),
          { name: 'granted_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'IDX_member_roles_tenant_role', columnNames: ['tenant_id', 'role_key', 'user_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'invitation_roles',
        columns: [key('invitation_id', 36, true), key('role_key', 40, true), key('tenant_id', 128)],
        indices: [{ name: 'IDX_invitation_roles_tenant_role', columnNames: ['tenant_id', 'role_key'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'invitation_roles',
      'member_roles',
      'org_role_permissions',
      'org_roles',
      'product_permissions',
    ])
      await queryRunner.dropTable(table);
  }
}

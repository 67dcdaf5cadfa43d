import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * SCIM 2.0 (docs/scim.md): each organisation's bearer tokens (stored as SHA-256 hashes), the User
 * and Group resources that its identity provider manages, the groups' members, and the mapping of
 * group names to roles. Dialect-neutral, like CreateTables. The unique indexes are the rules that
 * hold under parallel requests: one SCIM user per userName (case-folded) and per person, one group
 * per displayName, in each organisation.
 */
export class CreateScim1765000000000 implements MigrationInterface {
  name = 'CreateScim1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids and keys compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    const id = (name: string, length = 36) => ({ name, type: 'varchar', length: String(length), collation: exact });
    await queryRunner.createTable(
      new Table({
        name: 'scim_tokens',
        columns: [
          { ...id('id'), isPrimary: true },
          id('tenant_id', 128),
          id('secret_hash', 64),
          id('created_by', 128),
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'last_used_at', type: 'datetime', precision: 3, isNullable: true },
        ],
        indices: [
          { name: 'UQ_scim_tokens_secret_hash', columnNames: ['secret_hash'], isUnique: true },
          { name: 'IDX_scim_tokens_tenant', columnNames: ['tenant_id', 'created_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'scim_users',
        columns: [
          { ...id('id'), isPrimary: true },
          id('tenant_id', 128),
          id('user_id', 128),
          { name: 'user_name', type: 'varchar', length: '320' },
          id('user_name_key', 320),
          { ...id('external_id', 255), isNullable: true },
          id('email_key', 320),
          { name: 'active', type: 'int' },
          // The role held when SCIM detached the person, given back when it reactivates them.
          { name: 'role', type: 'varchar', length: '16', isNullable: true },
          { name: 'attributes', type: 'text' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'last_modified', type: 'datetime', precision: 3 },
        ],
        indices: [
          { name: 'UQ_scim_users_tenant_user_name', columnNames: ['tenant_id', 'user_name_key'], isUnique: true },
          { name: 'UQ_scim_users_user', columnNames: ['user_id'], isUnique: true },
          { name: 'IDX_scim_users_tenant_external_id', columnNames: ['tenant_id', 'external_id'] },
          { name: 'IDX_scim_users_tenant_email', columnNames: ['tenant_id', 'email_key'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'scim_groups',
        columns: [
          { ...id('id'), isPrimary: true },
          id('tenant_id', 128),
          { name: 'display_name', type: 'varchar', length: '255' },
          id('display_name_key', 255),
          { ...id('external_id', 255), isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'last_modified', type: 'datetime', precision: 3 },
        ],
        indices: [
          { name: 'UQ_scim_groups_tenant_name', columnNames: ['tenant_id', 'display_name_key'], isUnique: true },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'scim_group_members',
        columns: [
          { ...id('group_id'), isPrimary: true },
          { ...id('scim_user_id'), isPrimary: true },
          id('tenant_id', 128),
        ],
        indices: [{ name: 'IDX_scim_group_members_user', columnNames: ['scim_user_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'scim_role_mappings',
        columns: [
          { ...id('tenant_id', 128), isPrimary: true },
          { ...id('group_key', 255), isPrimary: true },
          { name: 'group_name', type: 'varchar', length: '255' },
          { name: 'role', type: 'varchar', length: '16' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['scim_role_mappings', 'scim_group_members', 'scim_groups', 'scim_users', 'scim_tokens'])
      await queryRunner.dropTable(table);
  }
}

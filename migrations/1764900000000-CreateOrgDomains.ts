import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Verified domains (docs/domains.md): the claims of organisations on e-mail domains, and the
 * requests of people to join by one. Dialect-neutral, like CreateTables.
 * - `org_domains.held_name` is the name while the claim is verified or failing, null otherwise: its
 *   unique index lets one organisation at most hold a name, whatever the number of racing verifies.
 * - `join_requests.pending_key` is `<tenant>:<user>` while the request is pending, null otherwise:
 *   one pending request per person and organisation, however many asks run at once.
 */
export class CreateOrgDomains1764900000000 implements MigrationInterface {
  name = 'CreateOrgDomains1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'org_domains',
        columns: [
          { name: 'id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact },
          { name: 'name', type: 'varchar', length: '253', collation: exact },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'join_mode', type: 'varchar', length: '16' },
          { name: 'token', type: 'varchar', length: '64', collation: exact },
          { name: 'token_issued_at', type: 'datetime', precision: 3 },
          { name: 'last_check_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'last_check_result', type: 'varchar', length: '32', isNullable: true },
          { name: 'verified_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'grace_ends_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'next_check_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'held_name', type: 'varchar', length: '253', collation: exact, isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          { name: 'UQ_org_domains_tenant_name', columnNames: ['tenant_id', 'name'], isUnique: true },
          { name: 'IDX_org_domains_name', columnNames: ['name'] },
          { name: 'IDX_org_domains_next_check', columnNames: ['next_check_at'] },
          { name: 'UQ_org_domains_held_name', columnNames: ['held_name'], isUnique: true },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'join_requests',
        columns: [
          { name: 'id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact },
          { name: 'user_id', type: 'varchar', length: '128', collation: exact },
          { name: 'email', type: 'varchar', length: '320' },
          { name: 'domain', type: 'varchar', length: '253', collation: exact },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'pending_key', type: 'varchar', length: '300', collation: exact, isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'decided_at', type: 'datetime', precision: 3, isNullable: true },
        ],
        indices: [
          { name: 'IDX_join_requests_tenant_status', columnNames: ['tenant_id', 'status', 'created_at'] },
          { name: 'UQ_join_requests_pending_key', columnNames: ['pending_key'], isUnique: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('join_requests');
    await queryRunner.dropTable('org_domains');
  }
}

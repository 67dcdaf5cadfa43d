import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * One row per organisation whose owners SCIM may take away (docs/scim.md, "The last-owner guard"):
 * a lease that a SCIM change holds from its count of the owners to the identity store's write, so
 * that two parallel changes each removing one of two owners run one after the other and the second
 * counts what the first left. `holder` names the change holding it, until `held_until` (epoch
 * milliseconds), past which a holder that died no longer holds it. Rows are made on first use.
 */
export class CreateScimOwnerLocks1765200000000 implements MigrationInterface {
  name = 'CreateScimOwnerLocks1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'scim_owner_locks',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact, isPrimary: true },
          { name: 'holder', type: 'varchar', length: '64', isNullable: true },
          { name: 'held_until', type: 'bigint', default: 0 },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('scim_owner_locks');
  }
}

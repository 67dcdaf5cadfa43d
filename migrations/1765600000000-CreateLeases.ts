import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The table as this migration makes it. On MySQL the migration lock makes it (if missing) before
 * any migration runs, since it guards them: from this definition, so that later migrations find
 * the same table whichever made it.
 */
export function leasesTable(type: string): Table {
  // Names compare exactly, as on SQLite; MySQL's default collation would fold case.
  const exact = type === 'mysql' ? 'utf8mb4_bin' : undefined;
  return new Table({
    name: 'leases',
    columns: [
      // 191 characters: an index key of utf8mb4 within InnoDB's 767 bytes.
      { name: 'name', type: 'varchar', length: '191', collation: exact, isPrimary: true },
      { name: 'holder', type: 'varchar', length: '64', isNullable: true },
      { name: 'held_until', type: 'bigint', default: 0 },
      { name: 'version', type: 'bigint', default: 0 },
    ],
  });
}

/**
 * One row per lease (src/database/leases.ts): `name` says what it guards (the migrations, an
 * organisation's SCIM owners, its domain claims); `holder` names who holds it until `held_until`
 * (epoch milliseconds), after which a holder that died no longer holds it; `version` is raised by
 * each transaction that writes the row, so that those transactions run one after another.
 * Rows are made on first use. It replaces scim_owner_locks, org_domain_claim_locks and
 * migration_lock, which stay while instances of the previous release may still use them
 * (migrations are additive); a later release drops them.
 */
export class CreateLeases1765600000000 implements MigrationInterface {
  name = 'CreateLeases1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(leasesTable(queryRunner.connection.options.type), true);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('leases');
  }
}

import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * One row per organisation that claims domains (docs/domains.md, "Limits"): every claim writes it
 * first in its transaction, so that parallel claims of one organisation run one after another (a
 * row lock on MySQL, a write-set conflict on Galera, which the writer retries) and the count of its
 * claims read after it is exact: DOMAINS_PER_ORG holds under concurrency. `claims` counts those
 * writes; its value means nothing else. Rows are made on an organisation's first claim.
 */
export class CreateOrgDomainClaimLocks1765100000000 implements MigrationInterface {
  name = 'CreateOrgDomainClaimLocks1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'org_domain_claim_locks',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact, isPrimary: true },
          { name: 'claims', type: 'int', default: 0 },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('org_domain_claim_locks');
  }
}

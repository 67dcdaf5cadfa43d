import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * A version per user whose membership is written to the user pool (cognito mode): every write of
 * a membership grant raises it in the grant's transaction, as a compare-and-set on the version read
 * before the person's membership was, so that of an invitation join, a domain join and a SCIM
 * adoption of one person judged at the same time only one writes (docs/scim.md). The pool itself
 * has no compare-and-set. Rows are made on first use.
 */
export class CreateMembershipVersions1765400000000 implements MigrationInterface {
  name = 'CreateMembershipVersions1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'membership_versions',
        columns: [
          { name: 'user_id', type: 'varchar', length: '128', collation: exact, isPrimary: true },
          { name: 'version', type: 'bigint', default: 0 },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('membership_versions');
  }
}

import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The membership grant outbox: the memberships that a join has granted and the user pool (cognito
 * mode) has yet to take, one per user. Dialect-neutral, like CreateTables; the same lookups as the
 * other outboxes (by status and due time, by status and lapsed claim), and by user.
 */
export class CreateMembershipGrants1764600000000 implements MigrationInterface {
  name = 'CreateMembershipGrants1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'membership_grants',
        columns: [
          { name: 'id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '128', collation: exact },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'int', default: 0 },
          { name: 'next_attempt_at', type: 'datetime', precision: 3 },
          { name: 'claimed_by', type: 'varchar', length: '100', collation: exact, isNullable: true },
          { name: 'claimed_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'last_error', type: 'varchar', length: '1000', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          { name: 'IDX_membership_grants_status_next_attempt', columnNames: ['status', 'next_attempt_at'] },
          { name: 'IDX_membership_grants_status_claimed_until', columnNames: ['status', 'claimed_until'] },
          // A user has at most one grant on its way: of two joins of one user, the second insert fails.
          { name: 'UQ_membership_grants_user', columnNames: ['user_id'], isUnique: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('membership_grants');
  }
}

import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The Idempotency-Key records. Dialect-neutral, like CreateTables. The primary
 * key (caller, key) is what makes a claim exclusive: of parallel requests with one key, on any
 * instance, one INSERT succeeds. The purge reads by age through the created_at index.
 */
export class CreateIdempotencyKeys1764300000000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Keys and ids compare exactly, as on SQLite; MySQL's default collation would fold case and trailing spaces.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { name: 'caller_id', type: 'varchar', length: '128', collation: exact, isPrimary: true },
          { name: 'idempotency_key', type: 'varchar', length: '255', collation: exact, isPrimary: true },
          { name: 'request_hash', type: 'varchar', length: '64' },
          { name: 'claim_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'claimed_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'response_status', type: 'int', isNullable: true },
          { name: 'response_body', type: 'text', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'IDX_idempotency_keys_created', columnNames: ['created_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}

import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The webhook delivery outbox. Dialect-neutral, like CreateTables; the same lookups as
 * the invitation e-mail outbox: by status and due time, by status and lapsed claim.
 */
export class CreateWebhookDeliveries1764400000000 implements MigrationInterface {
  name = 'CreateWebhookDeliveries1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          { name: 'id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'event_id', type: 'varchar', length: '36', collation: exact },
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'payload', type: 'text' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'int', default: 0 },
          { name: 'next_attempt_at', type: 'datetime', precision: 3 },
          { name: 'claimed_by', type: 'varchar', length: '100', collation: exact, isNullable: true },
          { name: 'claimed_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'last_error', type: 'varchar', length: '1000', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'delivered_at', type: 'datetime', precision: 3, isNullable: true },
        ],
        indices: [
          { name: 'IDX_webhook_deliveries_status_next_attempt', columnNames: ['status', 'next_attempt_at'] },
          { name: 'IDX_webhook_deliveries_status_claimed_until', columnNames: ['status', 'claimed_until'] },
          { name: 'IDX_webhook_deliveries_event', columnNames: ['event_id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_deliveries');
  }
}

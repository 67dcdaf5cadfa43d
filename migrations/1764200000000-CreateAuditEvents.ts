import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The audit trail. Dialect-neutral, like CreateTables. Every listing reads newest
 * first by (occurred_at, id), after an optional equality filter: each index leads with the
 * filtered column and ends with the order, so that one page reads one index range whatever
 * the table's size.
 */
export class CreateAuditEvents1764200000000 implements MigrationInterface {
  name = 'CreateAuditEvents1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    const order = ['occurred_at', 'id'];
    await queryRunner.createTable(
      new Table({
        name: 'audit_events',
        columns: [
          { name: 'id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'type', type: 'varchar', length: '40' },
          { name: 'occurred_at', type: 'datetime', precision: 3 },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact, isNullable: true },
          { name: 'actor_id', type: 'varchar', length: '128', collation: exact, isNullable: true },
          { name: 'actor_email', type: 'varchar', length: '320', isNullable: true },
          { name: 'target_type', type: 'varchar', length: '20' },
          { name: 'target_id', type: 'varchar', length: '128', collation: exact, isNullable: true },
          { name: 'target_email', type: 'varchar', length: '320', isNullable: true },
          { name: 'data', type: 'text' },
        ],
        indices: [
          { name: 'IDX_audit_events_occurred', columnNames: order },
          { name: 'IDX_audit_events_tenant_occurred', columnNames: ['tenant_id', ...order] },
          { name: 'IDX_audit_events_type_occurred', columnNames: ['type', ...order] },
          { name: 'IDX_audit_events_actor_occurred', columnNames: ['actor_id', ...order] },
          { name: 'IDX_audit_events_target_occurred', columnNames: ['target_id', ...order] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_events');
  }
}

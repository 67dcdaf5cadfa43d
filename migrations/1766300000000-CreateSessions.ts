import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Sessions (docs/sessions.md): one row per session that the service issues, read by primary key on
 * each request that carries its `sid`; listed by person, ended by person, organisation or connection;
 * purged by `expires_at` (a revocation brings it forward to the revocation). And each person's
 * "not before", which a token without `sid` must have been issued after.
 */
export class CreateSessions1766300000000 implements MigrationInterface {
  name = 'CreateSessions1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'id', type: 'varchar', length: '64', collation: exact, isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '128', collation: exact },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact, isNullable: true },
          { name: 'kind', type: 'varchar', length: '8' },
          { name: 'connection_id', type: 'varchar', length: '36', collation: exact, isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'last_used_at', type: 'datetime', precision: 3 },
          { name: 'expires_at', type: 'datetime', precision: 3 },
          { name: 'idle_seconds', type: 'int' },
          { name: 'user_agent', type: 'varchar', length: '512', isNullable: true },
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          { name: 'revoked_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'revoked_reason', type: 'varchar', length: '32', isNullable: true },
        ],
        indices: [
          { name: 'IDX_sessions_user', columnNames: ['user_id', 'created_at'] },
          { name: 'IDX_sessions_tenant', columnNames: ['tenant_id'] },
          { name: 'IDX_sessions_connection', columnNames: ['connection_id'] },
          { name: 'IDX_sessions_expires', columnNames: ['expires_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'session_cutoffs',
        columns: [
          { name: 'user_id', type: 'varchar', length: '128', collation: exact, isPrimary: true },
          { name: 'not_before', type: 'bigint' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('session_cutoffs');
    await queryRunner.dropTable('sessions');
  }
}

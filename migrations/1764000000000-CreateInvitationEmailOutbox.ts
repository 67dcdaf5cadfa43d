import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The invitation e-mail outbox. Dialect-neutral, like CreateTables.
 * The worker looks rows up by status and due time, and by status and lapsed claim.
 */
export class CreateInvitationEmailOutbox1764000000000 implements MigrationInterface {
  name = 'CreateInvitationEmailOutbox1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'invitation_email_outbox',
        columns: [
          { name: 'id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'invitation_id', type: 'varchar', length: '36', collation: exact },
          { name: 'payload', type: 'text' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'int', default: 0 },
          { name: 'next_attempt_at', type: 'datetime', precision: 3 },
          { name: 'claimed_by', type: 'varchar', length: '100', collation: exact, isNullable: true },
          { name: 'claimed_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'last_error', type: 'varchar', length: '1000', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'sent_at', type: 'datetime', precision: 3, isNullable: true },
        ],
        indices: [
          { name: 'IDX_invitation_email_outbox_status_next_attempt', columnNames: ['status', 'next_attempt_at'] },
          { name: 'IDX_invitation_email_outbox_status_claimed_until', columnNames: ['status', 'claimed_until'] },
          { name: 'IDX_invitation_email_outbox_invitation', columnNames: ['invitation_id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('invitation_email_outbox');
  }
}

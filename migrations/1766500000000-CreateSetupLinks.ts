import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Setup links (docs/setup-links.md): one row per link, found by its token's hash on every opening
 * and by its id on every request of its setup session; listed per organisation, newest first; the
 * expiry job reads the open ones past their time. And what each link made (a domain claim, a
 * connection), read by kind and id. And the outbox of notice e-mails (the link to the IT admin, the
 * owners' notices), claimed by next_attempt_at as the invitation e-mails' is.
 */
export class CreateSetupLinks1766500000000 implements MigrationInterface {
  name = 'CreateSetupLinks1766500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.createTable(
      new Table({
        name: 'setup_links',
        columns: [
          { name: 'id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact },
          { name: 'token_hash', type: 'varchar', length: '64', collation: exact },
          { name: 'intents', type: 'varchar', length: '32' },
          { name: 'email', type: 'varchar', length: '320', isNullable: true },
          { name: 'created_by', type: 'varchar', length: '128' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'expires_at', type: 'datetime', precision: 3 },
          { name: 'last_opened_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'completed_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'revoked_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'expiry_recorded_at', type: 'datetime', precision: 3, isNullable: true },
        ],
        indices: [
          { name: 'IDX_setup_links_token', columnNames: ['token_hash'], isUnique: true },
          { name: 'IDX_setup_links_tenant', columnNames: ['tenant_id', 'created_at'] },
          { name: 'IDX_setup_links_expires', columnNames: ['expires_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'setup_link_items',
        columns: [
          { name: 'kind', type: 'varchar', length: '16', isPrimary: true },
          { name: 'item_id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'link_id', type: 'varchar', length: '36', collation: exact },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'IDX_setup_link_items_link', columnNames: ['link_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'notice_email_outbox',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'int' },
          { name: 'next_attempt_at', type: 'datetime', precision: 3 },
          { name: 'claimed_by', type: 'varchar', length: '100', isNullable: true },
          { name: 'claimed_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'last_error', type: 'varchar', length: '1000', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'tenant_id', type: 'varchar', length: '128', collation: exact },
          { name: 'payload', type: 'text' },
        ],
        indices: [
          { name: 'IDX_notice_email_outbox_status_next_attempt', columnNames: ['status', 'next_attempt_at'] },
          { name: 'IDX_notice_email_outbox_status_claimed_until', columnNames: ['status', 'claimed_until'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('notice_email_outbox');
    await queryRunner.dropTable('setup_link_items');
    await queryRunner.dropTable('setup_links');
  }
}

import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * GET /api/me/invitations reads a person's pending invitations by their address across
 * organisations: an index by (email_key, status, expires_at), so that it reads those rows alone
 * whatever the table's size.
 */
export class IndexInvitationsByAddress1765950000000 implements MigrationInterface {
  name = 'IndexInvitationsByAddress1765950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'tenant_invitations',
      new TableIndex({
        name: 'IDX_tenant_invitations_email_key_status',
        columnNames: ['email_key', 'status', 'expires_at'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('tenant_invitations', 'IDX_tenant_invitations_email_key_status');
  }
}

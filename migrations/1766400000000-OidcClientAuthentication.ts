import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * How an OIDC connection authenticates at its provider's token endpoint (docs/sso.md, "OIDC"):
 * `client_secret_basic` or `client_secret_post`. The rows before it sent Basic, so they keep it; a
 * SAML connection's value is never read.
 */
export class OidcClientAuthentication1766400000000 implements MigrationInterface {
  name = 'OidcClientAuthentication1766400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'sso_connections',
      new TableColumn({
        name: 'token_endpoint_auth_method',
        type: 'varchar',
        length: '32',
        default: "'client_secret_basic'",
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('sso_connections', 'token_endpoint_auth_method');
  }
}

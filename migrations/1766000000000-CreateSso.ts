import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Single sign-on per organisation (docs/sso.md): its connections to identity providers, the sign-ins
 * started and not yet answered (state, nonce and PKCE verifier, used once), the people known by a
 * connection's subject, every attempt with the check that failed, and the organisations that
 * require single sign-on of their members. Reads on a sign-in's path are
 * primary keys; a connection's attempts are a range of (connection, time).
 */
export class CreateSso1766000000000 implements MigrationInterface {
  name = 'CreateSso1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids, states and subjects compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    const key = (name: string, length: number, isPrimary = false) => ({
      name,
      type: 'varchar',
      length: String(length),
      collation: exact,
      isPrimary,
    });
    const text = (name: string, length: number, isNullable = false) => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable,
    });
    const at = (name: string, isNullable = false) => ({ name, type: 'datetime', precision: 3, isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'sso_connections',
        columns: [
          key('id', 36, true),
          key('tenant_id', 128),
          text('type', 8),
          text('name', 200),
          text('status', 16),
          { name: 'jit', type: 'int' },
          text('default_role', 16),
          { name: 'allow_idp_initiated', type: 'int' },
          text('issuer', 500),
          text('client_id', 255),
          text('client_secret', 2000),
          text('scopes', 500),
          { name: 'discovery', type: 'text' },
          at('discovered_at'),
          at('activated_at', true),
          // When an owner made it the primary: the latest such of the active ones is the primary.
          at('primary_at', true),
          at('created_at'),
          at('updated_at'),
        ],
        indices: [{ name: 'IDX_sso_connections_tenant', columnNames: ['tenant_id', 'created_at'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sso_requests',
        columns: [
          key('state', 64, true),
          key('connection_id', 36),
          text('nonce', 64),
          text('code_verifier', 128),
          text('return_to', 2048),
          // sign_in, or test: an owner's test sign-in, which checks and neither joins nor signs in.
          text('purpose', 8),
          at('expires_at'),
          at('created_at'),
          at('used_at', true),
        ],
        indices: [{ name: 'IDX_sso_requests_expires', columnNames: ['expires_at'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sso_identities',
        columns: [
          key('connection_id', 36, true),
          key('subject', 255, true),
          key('user_id', 128),
          text('email', 320),
          at('created_at'),
          at('last_login_at'),
        ],
        indices: [{ name: 'IDX_sso_identities_user', columnNames: ['user_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sso_attempts',
        columns: [
          key('id', 36, true),
          key('connection_id', 36),
          key('tenant_id', 128),
          at('at'),
          text('result', 64),
          text('email', 320, true),
          text('subject', 255, true),
          text('detail', 1000),
        ],
        indices: [{ name: 'IDX_sso_attempts_connection_at', columnNames: ['connection_id', 'at'] }],
      }),
    );
    // An organisation whose members must sign in by single sign-on: a row while it is so. The org
    // guard reads it by primary key in the statement that reads the tenant's status.
    await queryRunner.createTable(
      new Table({
        name: 'sso_enforcements',
        columns: [key('tenant_id', 128, true), at('enforced_at'), text('enforced_by', 128, true)],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['sso_enforcements', 'sso_attempts', 'sso_identities', 'sso_requests', 'sso_connections'])
      await queryRunner.dropTable(table);
  }
}

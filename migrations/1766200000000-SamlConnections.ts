import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * SAML connections (docs/sso.md, "SAML"): where an owner's metadata came from (its URL, read again by
 * refresh), whether the assertion itself must be signed and which certificate expiry was warned
 * about; and the assertions already used, each
 * kept until it could no longer be accepted anyway (its NotOnOrAfter plus the clock skew), so that a
 * replay is refused on every instance: the primary key lets one of two copies in at once.
 */
export class SamlConnections1766200000000 implements MigrationInterface {
  name = 'SamlConnections1766200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids compare exactly, as on SQLite; MySQL's default collation would fold case.
    const exact = queryRunner.connection.options.type === 'mysql' ? 'utf8mb4_bin' : undefined;
    await queryRunner.addColumns('sso_connections', [
      new TableColumn({ name: 'metadata_url', type: 'varchar', length: '2048', isNullable: true }),
      new TableColumn({ name: 'want_assertions_signed', type: 'int', default: 1 }),
      // The notAfter of the last valid certificate that sso.certificate_expiring warned about: once each.
      new TableColumn({ name: 'expiry_warned_for', type: 'datetime', precision: 3, isNullable: true }),
    ]);
    await queryRunner.createTable(
      new Table({
        name: 'sso_assertions',
        columns: [
          { name: 'connection_id', type: 'varchar', length: '36', collation: exact, isPrimary: true },
          { name: 'assertion_id', type: 'varchar', length: '255', collation: exact, isPrimary: true },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'IDX_sso_assertions_expires', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sso_assertions');
    await queryRunner.dropColumn('sso_connections', 'expiry_warned_for');
    await queryRunner.dropColumn('sso_connections', 'want_assertions_signed');
    await queryRunner.dropColumn('sso_connections', 'metadata_url');
  }
}

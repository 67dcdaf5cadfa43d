import { LogLevel } from '../config/app-config';
import { MigrationRunLogger } from './migration-run';

/** The logger of a `npm run migration:run` at `level`, and what it wrote on stdout and stderr. */
function runLog(level: LogLevel) {
  const out: string[] = [];
  const errors: string[] = [];
  const logger = new MigrationRunLogger(
    level,
    { write: (line: string) => out.push(line) > 0 },
    { write: (line: string) => errors.push(line) > 0 },
  );
  return { logger, out, errors };
}

/** What TypeORM's MigrationExecutor tells its logger while it applies two migrations. */
function applyTwo(logger: MigrationRunLogger) {
  logger.logQuery('SELECT * FROM "sqlite_master" WHERE "type" = \'table\' AND "name" = ?', ['migrations']);
  logger.logSchemaBuild('0 migrations are already loaded in the database.');
  logger.logSchemaBuild('2 migrations were found in the source code.');
  logger.logSchemaBuild('2 migrations are new migrations must be executed.');
  logger.logQuery('CREATE TABLE "tenants" ("id" varchar(36) PRIMARY KEY NOT NULL)');
  logger.logSchemaBuild('Migration CreateTenants1700000000000 has been executed successfully.');
  logger.logQuery('CREATE TABLE "users" ("id" varchar(255) PRIMARY KEY NOT NULL)');
  logger.logSchemaBuild('Migration CreateUsers1700000000001 has been executed successfully.');
  logger.summary([{ name: 'CreateTenants1700000000000' }, { name: 'CreateUsers1700000000001' }] as never);
}

describe(MigrationRunLogger.name, () => {
  it('at info: one line per migration applied, with its time, and a last line; no SQL', () => {
    const { logger, out, errors } = runLog('info');
    applyTwo(logger);
    expect(out).toEqual([
      expect.stringMatching(/^Migration CreateTenants1700000000000 applied \(\d+ ms\)\n$/),
      expect.stringMatching(/^Migration CreateUsers1700000000001 applied \(\d+ ms\)\n$/),
      '2 migration(s) applied: the database is up to date\n',
    ]);
    expect(errors).toEqual([]);
  });

  it('with nothing to apply, the last line alone says so', () => {
    const { logger, out } = runLog('info');
    logger.logSchemaBuild('No migrations are pending');
    logger.summary([]);
    expect(out).toEqual(['No migrations pending: the database is up to date\n']);
  });

  it("at debug: the SQL and TypeORM's own notes as well", () => {
    const { logger, out } = runLog('debug');
    applyTwo(logger);
    expect(out).toContain('query: CREATE TABLE "tenants" ("id" varchar(36) PRIMARY KEY NOT NULL)\n');
    expect(out).toContain(
      'query: SELECT * FROM "sqlite_master" WHERE "type" = \'table\' AND "name" = ? -- ["migrations"]\n',
    );
    expect(out).toContain('2 migrations are new migrations must be executed.\n');
    expect(out.filter((line) => line.startsWith('Migration '))).toHaveLength(2);
  });

  it('a failure at error, on stderr, at every level but silent', () => {
    for (const level of ['warn', 'info'] as const) {
      const { logger, out, errors } = runLog(level);
      logger.logQueryError(new Error('table "tenants" already exists'), 'CREATE TABLE "tenants" ("id" varchar(36))');
      logger.logMigration('Migration "CreateTenants1700000000000" failed, error: table "tenants" already exists');
      expect(out).toEqual([]);
      expect(errors).toEqual([
        'query failed: CREATE TABLE "tenants" ("id" varchar(36)): Error: table "tenants" already exists\n',
        'Migration "CreateTenants1700000000000" failed, error: table "tenants" already exists\n',
      ]);
    }
    const { logger, out, errors } = runLog('silent');
    applyTwo(logger);
    logger.logMigration('Migration "CreateTenants1700000000000" failed, error: …');
    expect([...out, ...errors]).toEqual([]);
  });
});

import type { DataSourceOptions, Logger, Migration } from 'typeorm';
import { LOG_LEVELS, LogLevel } from '../config/app-config';
import { ClusteredDataSource } from './clustered-data-source';

/** TypeORM's note once a migration is applied and recorded. */
const APPLIED = /^Migration (\S+) has been (?:\(fake\) )?executed successfully\.$/;

/** A level's place in LOG_LEVELS; `silent` lets nothing through. */
const rank = (level: LogLevel) => (level === 'silent' ? -1 : LOG_LEVELS.indexOf(level));

const withParameters = (query: string, parameters?: unknown[]) =>
  parameters?.length ? `${query} -- ${JSON.stringify(parameters)}` : query;

/**
 * What `npm run migration:run` prints. TypeORM's CLI turns its query logging on, which is hundreds
 * of lines of SQL for a new database and no summary: here, one line per migration applied (with
 * its time) and a last line at info, the SQL and TypeORM's own notes at debug, a failure at error on
 * stderr. LOG_LEVEL chooses, as for the server.
 */
export class MigrationRunLogger implements Logger {
  private since = Date.now();

  constructor(
    private readonly level: LogLevel,
    private readonly out: Pick<NodeJS.WriteStream, 'write'> = process.stdout,
    private readonly errors: Pick<NodeJS.WriteStream, 'write'> = process.stderr,
  ) {}

  logQuery(query: string, parameters?: unknown[]): void {
    this.write('debug', `query: ${withParameters(query, parameters)}`);
  }

  logQuerySlow(time: number, query: string, parameters?: unknown[]): void {
    this.write('debug', `query took ${time} ms: ${withParameters(query, parameters)}`);
  }

  logQueryError(error: string | Error, query: string, parameters?: unknown[]): void {
    this.write('error', `query failed: ${withParameters(query, parameters)}: ${String(error)}`);
  }

  logSchemaBuild(message: string): void {
    const applied = APPLIED.exec(message);
    if (applied) this.write('info', `Migration ${applied[1]} applied (${Date.now() - this.since} ms)`);
    else this.write('debug', message);
    this.since = Date.now();
  }

  /** TypeORM reports a migration's failure here. */
  logMigration(message: string): void {
    this.write('error', message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    this.write(level === 'warn' ? 'warn' : 'debug', String(message));
  }

  /** The last line of a run. */
  summary(applied: Migration[]): void {
    this.write(
      'info',
      applied.length === 0
        ? 'No migrations pending: the database is up to date'
        : `${applied.length} migration(s) applied: the database is up to date`,
    );
  }

  private write(level: Exclude<LogLevel, 'silent'>, line: string): void {
    if (rank(level) > rank(this.level)) return;
    (rank(level) <= rank('warn') ? this.errors : this.out).write(`${line}\n`);
  }
}

/** The DataSource of `npm run migration:run` (ormconfig.ts): the service's, with MigrationRunLogger and a last line. */
export class MigrationRunDataSource extends ClusteredDataSource {
  constructor(
    options: DataSourceOptions,
    private readonly runLog: MigrationRunLogger,
  ) {
    super({ ...options, logger: runLog });
  }

  override async runMigrations(options?: Parameters<ClusteredDataSource['runMigrations']>[0]): Promise<Migration[]> {
    const applied = await super.runMigrations(options);
    this.runLog.summary(applied);
    return applied;
  }
}

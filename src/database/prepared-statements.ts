import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export type Row = Record<string, unknown>;

/** The parts of TypeORM's mysql2 pool (callback API) and of its connections used by the service. */
export type MysqlError = Error & { fatal?: boolean };
export interface MysqlConnection {
  query(
    sql: string,
    params: unknown[],
    done: (error: MysqlError | null, result: { affectedRows?: number }) => void,
  ): void;
  release(): void;
  destroy(): void;
}
export interface MysqlPool {
  execute(sql: string, params: unknown[], done: (error: Error | null, rows: Row[]) => void): void;
  query(
    sql: string | { sql: string; dateStrings: boolean },
    params: unknown[],
    done: (error: Error | null, rows: Row[]) => void,
  ): void;
  getConnection(done: (error: Error | null, connection: MysqlConnection) => void): void;
}
/**
 * Whether a failure is the connection's, not a statement's: mysql2 marks `fatal` what ends a
 * connection (refused, timed out, lost), after which the database cannot be reached for now.
 */
export const isConnectionFailure = (error: unknown): boolean => (error as MysqlError | undefined)?.fatal === true;

/** The parts of TypeORM's better-sqlite3 connection used by the service. */
interface SqliteStatement {
  all(...params: unknown[]): Row[];
  run(...params: unknown[]): { changes: number };
}
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  /** better-sqlite3's transaction function: `.immediate()` begins it as a writer (BEGIN IMMEDIATE). */
  transaction(work: () => void): { (): void; immediate(): void };
}

/** The mysql2 pool that TypeORM holds for a MySQL data source. */
export const mysqlPoolOf = (dataSource: DataSource): MysqlPool =>
  (dataSource.driver as unknown as { pool: MysqlPool }).pool;

/** The one better-sqlite3 connection that TypeORM holds for a SQLite data source. */
export const sqliteDatabaseOf = (dataSource: DataSource): SqliteDatabase =>
  (dataSource.driver as unknown as { databaseConnection: SqliteDatabase }).databaseConnection;

/** A driver's way to run statements: bound once the data source is initialised. */
interface Runner {
  rows(sql: string, params: unknown[], large: boolean): Promise<Row[]>;
  changes(sql: string, params: unknown[]): Promise<number>;
}

/**
 * The queries on the paths that carry load, sent straight to the driver that TypeORM already
 * holds: a prepared statement (mysql2's `execute`, which caches it per connection; better-sqlite3's
 * `prepare`, cached here, once for the whole app), with no query building and no entity hydration.
 * Parameters only, never interpolated values. Columns come back as stored: `timestamp()` turns
 * either dialect's DATETIME into a Date.
 */
@Injectable()
export class PreparedStatements {
  private runner?: Runner;

  constructor(private readonly dataSource: DataSource) {}

  /** All the rows of a read. */
  rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.bound().rows(sql, params, false);
  }

  /**
   * A read of many rows: on MySQL, through the text protocol, which parses a large result markedly
   * faster than a prepared statement's binary one, and with DATETIME columns left as text (no Date
   * per row): on both dialects they come back as UTC text, `YYYY-MM-DD HH:MM:SS.mmm`.
   */
  manyRows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.bound().rows(sql, params, true);
  }

  /**
   * SQL that reads a DATETIME(3) column as ISO 8601 UTC text, `YYYY-MM-DDTHH:MM:SS.mmmZ`, in this
   * database's dialect: a long list is then sent as it is read, with no pass over its rows.
   */
  isoTimestampSql(column: string): string {
    return this.dataSource.options.type === 'mysql'
      ? `CONCAT(LEFT(DATE_FORMAT(${column}, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', ${column})`;
  }

  /** The database's dialect, for SQL that differs (an index hint). */
  get dialect(): 'mysql' | 'sqlite' {
    return this.dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite';
  }

  /** A write (UPDATE, DELETE); the number of rows it changed. */
  async changes(sql: string, params: unknown[]): Promise<number> {
    return this.bound().changes(sql, params);
  }

  /** The first row of a read, or undefined. */
  async first(sql: string, params: unknown[]): Promise<Row | undefined> {
    return (await this.rows(sql, params))[0];
  }

  /** Bound on first use: the data source is initialised by then. */
  private bound(): Runner {
    return (this.runner ??=
      this.dataSource.options.type === 'mysql' ? mysqlRunner(this.dataSource) : sqliteRunner(this.dataSource));
  }
}

function mysqlRunner(dataSource: DataSource): Runner {
  const pool = mysqlPoolOf(dataSource);
  return {
    rows: (sql, params, large) =>
      new Promise<Row[]>((resolve, reject) => {
        const done = (error: Error | null, rows: Row[]) => (error ? reject(error) : resolve(rows));
        if (large) pool.query({ sql, dateStrings: true }, params, done);
        else pool.execute(sql, params, done);
      }),
    changes: (sql, params) =>
      new Promise<number>((resolve, reject) =>
        pool.execute(sql, params, (error, result) =>
          error ? reject(error) : resolve((result as unknown as { affectedRows: number }).affectedRows),
        ),
      ),
  };
}

/** better-sqlite3 statements, each prepared once, for reads and writes alike. */
function sqliteRunner(dataSource: DataSource): Runner {
  const database = sqliteDatabaseOf(dataSource);
  const statements = new Map<string, SqliteStatement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = database.prepare(sql)));
    return statement;
  };
  return {
    rows: async (sql, params) => prepared(sql).all(...params),
    changes: async (sql, params) => prepared(sql).run(...params).changes,
  };
}

/**
 * A DATETIME column as a Date. mysql2 gives a Date (the pool's timezone is UTC); better-sqlite3
 * gives TypeORM's UTC text, `YYYY-MM-DD HH:MM:SS.SSS`.
 */
export function timestamp(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(text.includes('T') ? text : `${text.replace(' ', 'T')}Z`);
}

/**
 * A Date as a DATETIME(3) parameter: UTC text, `YYYY-MM-DD HH:MM:SS.mmm`, as TypeORM writes it
 * on SQLite and as MySQL reads it, whatever the connection's time zone.
 */
export const sqlTimestamp = (date: Date): string => date.toISOString().replace('T', ' ').slice(0, 23);

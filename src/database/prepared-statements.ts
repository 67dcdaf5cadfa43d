import type { DataSource } from 'typeorm';

export type Row = Record<string, unknown>;

/** The parts of TypeORM's mysql2 pool (callback API) and of its connections used by the service. */
export type MysqlError = Error & { fatal?: boolean };
export interface MysqlConnection {
  query(sql: string, params: unknown[], done: (error: MysqlError | null, result: { affectedRows?: number }) => void): void;
  release(): void;
  destroy(): void;
}
export interface MysqlPool {
  execute(sql: string, params: unknown[], done: (error: Error | null, rows: Row[]) => void): void;
  query(sql: string | { sql: string; dateStrings: boolean }, params: unknown[], done: (error: Error | null, rows: Row[]) => void): void;
  getConnection(done: (error: Error | null, connection: MysqlConnection) => void): void;
}
/** The parts of TypeORM's better-sqlite3 connection used by the service. */
interface SqliteStatement {
  all(...params: unknown[]): Row[];
  run(...params: unknown[]): { changes: number };
}
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  transaction(work: () => void): () => void;
}

/** The mysql2 pool that TypeORM holds for a MySQL data source. */
export const mysqlPoolOf = (dataSource: DataSource): MysqlPool => (dataSource.driver as unknown as { pool: MysqlPool }).pool;

/** The one better-sqlite3 connection that TypeORM holds for a SQLite data source. */
export const sqliteDatabaseOf = (dataSource: DataSource): SqliteDatabase =>
  (dataSource.driver as unknown as { databaseConnection: SqliteDatabase }).databaseConnection;

/**
 * The queries on the paths that carry load (issue 11), sent straight to the driver that TypeORM
 * already holds: a prepared statement (mysql2's `execute`, which caches it per connection;
 * better-sqlite3's `prepare`, cached here), with no query building and no entity hydration.
 * Parameters only, never interpolated values. Columns come back as stored: `timestamp()` turns
 * either dialect's DATETIME into a Date.
 */
export class PreparedStatements {
  private run?: (sql: string, params: unknown[], large: boolean) => Promise<Row[]>;
  private write?: (sql: string, params: unknown[]) => Promise<number>;

  constructor(private readonly dataSource: DataSource) {}

  /** All the rows of a read. */
  rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.runner()(sql, params, false);
  }

  /**
   * A read of many rows: on MySQL, through the text protocol, which parses a large result markedly
   * faster than a prepared statement's binary one, and with DATETIME columns left as text (no Date
   * per row): on both dialects they come back as UTC text for `isoTimestamp()`.
   */
  manyRows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.runner()(sql, params, true);
  }

  /** A write (UPDATE, DELETE); the number of rows it changed. */
  async changes(sql: string, params: unknown[]): Promise<number> {
    return this.writer()(sql, params);
  }

  /** The first row of a read, or undefined. */
  async first(sql: string, params: unknown[]): Promise<Row | undefined> {
    return (await this.rows(sql, params))[0];
  }

  /** Bound on first use: the data source is initialised by then. */
  private runner() {
    return (this.run ??= this.dataSource.options.type === 'mysql' ? mysqlRunner(this.dataSource) : sqliteRunner(this.dataSource));
  }

  private writer() {
    return (this.write ??= this.dataSource.options.type === 'mysql' ? mysqlWriter(this.dataSource) : sqliteWriter(this.dataSource));
  }
}

function mysqlRunner(dataSource: DataSource) {
  const pool = mysqlPoolOf(dataSource);
  return (sql: string, params: unknown[], large: boolean) =>
    new Promise<Row[]>((resolve, reject) => {
      const done = (error: Error | null, rows: Row[]) => (error ? reject(error) : resolve(rows));
      if (large) pool.query({ sql, dateStrings: true }, params, done);
      else pool.execute(sql, params, done);
    });
}

function mysqlWriter(dataSource: DataSource) {
  const pool = mysqlPoolOf(dataSource);
  return (sql: string, params: unknown[]) =>
    new Promise<number>((resolve, reject) =>
      pool.execute(sql, params, (error, result) => (error ? reject(error) : resolve((result as unknown as { affectedRows: number }).affectedRows))),
    );
}

function sqliteWriter(dataSource: DataSource) {
  const prepared = sqliteStatements(dataSource);
  return async (sql: string, params: unknown[]) => prepared(sql).run(...params).changes;
}

/** better-sqlite3 statements, each prepared once. */
function sqliteStatements(dataSource: DataSource): (sql: string) => SqliteStatement {
  const database = sqliteDatabaseOf(dataSource);
  const statements = new Map<string, SqliteStatement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = database.prepare(sql)));
    return statement;
  };
}

function sqliteRunner(dataSource: DataSource) {
  const prepared = sqliteStatements(dataSource);
  return async (sql: string, params: unknown[]) => prepared(sql).all(...params);
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
 * A DATETIME(3) column read by `manyRows` as ISO 8601: `YYYY-MM-DD HH:MM:SS.mmm` (UTC) on both
 * dialects, turned around as text, which is much cheaper than a Date per row in a long list.
 */
export function isoTimestamp(value: unknown): string {
  if (typeof value === 'string' && value.length === 23 && value[10] === ' ') return `${value.slice(0, 10)}T${value.slice(11)}Z`;
  return timestamp(value).toISOString();
}

/**
 * A Date as a DATETIME(3) parameter: UTC text, `YYYY-MM-DD HH:MM:SS.mmm`, as TypeORM writes it
 * on SQLite and as MySQL reads it, whatever the connection's time zone.
 */
export const sqlTimestamp = (date: Date): string => date.toISOString().replace('T', ' ').slice(0, 23);

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { retryingWriteConflicts } from './write-conflicts';

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
  rows(sql: string, params: unknown[], large: boolean, causal?: boolean): Promise<Row[]>;
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

  /**
   * A write (UPDATE, DELETE); the number of rows it changed. A statement that lost a write conflict
   * (a deadlock; on Galera, a failed certification) was undone whole: it runs again (retryingWriteConflicts).
   */
  async changes(sql: string, params: unknown[]): Promise<number> {
    return retryingWriteConflicts(() => this.bound().changes(sql, params));
  }

  /**
   * The first row of a read, or undefined. `causal`: a read that decides an authorisation or a
   * single winner. On a Galera node it waits until the node has applied every write that the
   * cluster committed before it (`wsrep_sync_wait = 1`, for this read only), so that a suspension
   * or a removal made through another node holds at once; elsewhere it is an ordinary read.
   */
  async first(sql: string, params: unknown[], causal = false): Promise<Row | undefined> {
    return (await this.causalRows(sql, params, causal))[0];
  }

  /** All the rows of a read that decides an authorisation: causal on a Galera node, as `first`. */
  causalRows(sql: string, params: unknown[], causal = true): Promise<Row[]> {
    return this.bound().rows(sql, params, false, causal);
  }

  /** Bound on first use: the data source is initialised by then. */
  private bound(): Runner {
    return (this.runner ??=
      this.dataSource.options.type === 'mysql' ? mysqlRunner(this.dataSource) : sqliteRunner(this.dataSource));
  }
}

function mysqlRunner(dataSource: DataSource): Runner {
  const pool = mysqlPoolOf(dataSource);
  const read = (sql: string, params: unknown[], large: boolean) =>
    new Promise<Row[]>((resolve, reject) => {
      const done = (error: Error | null, rows: Row[]) => (error ? reject(error) : resolve(rows));
      if (large) pool.query({ sql, dateStrings: true }, params, done);
      else pool.execute(sql, params, done);
    });
  // With several hosts (DATABASE_URL), a read whose connection was lost (its node went away) is
  // sent again once: the pool then connects to the next host. A read changes nothing.
  const failover = hasFailover(dataSource);
  const readOnce = failover
    ? (sql: string, params: unknown[], large: boolean) =>
        read(sql, params, large).catch((error: unknown) => {
          if (!isConnectionFailure(error)) throw error;
          return read(sql, params, large);
        })
    : read;
  let causalPrefix: Promise<string> | undefined;
  return {
    rows: async (sql, params, large, causal) => {
      if (!causal) return readOnce(sql, params, large);
      causalPrefix ??= causalReadPrefix(pool).catch((error: unknown) => {
        causalPrefix = undefined; // asked again on the next causal read
        throw error;
      });
      return readOnce(`${await causalPrefix}${sql}`, params, large);
    },
    changes: (sql, params) =>
      new Promise<number>((resolve, reject) =>
        pool.execute(sql, params, (error, result) =>
          error ? reject(error) : resolve((result as unknown as { affectedRows: number }).affectedRows),
        ),
      ),
  };
}

/**
 * What makes a read causal on this server, asked once: on a MariaDB Galera node (`wsrep_on`),
 * `SET STATEMENT wsrep_sync_wait = 1 FOR`, which sets it for the one statement; on a server that
 * is not a Galera node, nothing. (A Galera node of MySQL, such as Percona XtraDB Cluster, lacks
 * SET STATEMENT: its reads stay ordinary, see docs/deploying.md.)
 */
async function causalReadPrefix(pool: MysqlPool): Promise<string> {
  return (await galeraNodeOf(pool)) === 'mariadb' ? 'SET STATEMENT wsrep_sync_wait = 1 FOR ' : '';
}

/**
 * Whether the server is a Galera node (`wsrep_on`), and of which engine: 'mariadb', 'mysql'
 * (Percona XtraDB Cluster), or false when it is not a Galera node.
 */
export async function galeraNodeOf(pool: MysqlPool): Promise<'mariadb' | 'mysql' | false> {
  const rows = await new Promise<Row[]>((resolve, reject) =>
    pool.query("SHOW VARIABLES WHERE Variable_name IN ('wsrep_on', 'version')", [], (error, found) =>
      error ? reject(error) : resolve(found),
    ),
  );
  const value = (name: string) => String(rows.find((row) => row.Variable_name === name)?.Value ?? '');
  if (value('wsrep_on') !== 'ON') return false;
  return /mariadb/i.test(value('version')) ? 'mariadb' : 'mysql';
}

/** Whether DATABASE_URL listed several hosts, between which the pools fail over (FailoverMysql). */
export const hasFailover = (dataSource: DataSource): boolean =>
  Array.isArray((dataSource.options as { extra?: { failoverHosts?: unknown } }).extra?.failoverHosts);

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

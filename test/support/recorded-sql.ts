import { DataSource } from 'typeorm';
import { ClusteredDataSource } from '../../src/database/clustered-data-source';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { sqliteDatabaseOf } from '../../src/database/prepared-statements';

type Rows = Record<string, unknown>[];

/** What a verb sent to the driver, a call at a time; and, on SQLite, the rows that its reads got back. */
export interface SentSql {
  calls: string[];
  reads: Rows[];
}

/**
 * What better-sqlite3 runs on `dataSource` while `verb` runs: every statement, TypeORM's, the
 * prepared ones and the AtomicWriter's (with its transaction's BEGIN and COMMIT), cached or not.
 * The statements of every database share one prototype: it is patched for the verb only.
 */
export async function sqliteSent(dataSource: DataSource, verb: () => Promise<unknown>): Promise<SentSql> {
  const sent: SentSql = { calls: [], reads: [] };
  const database = sqliteDatabaseOf(dataSource);
  const statement = Object.getPrototypeOf(database.prepare('SELECT 1')) as Record<
    'all' | 'run',
    (...params: unknown[]) => unknown
  >;
  const { all, run } = statement;
  // The only two ways the service runs a statement: `all` for reads, `run` for writes.
  statement.all = function (this: { source: string }, ...params) {
    sent.calls.push(this.source);
    const rows = all.apply(this, params) as Rows;
    sent.reads.push(rows);
    return rows;
  };
  statement.run = function (this: { source: string }, ...params) {
    sent.calls.push(this.source);
    return run.apply(this, params);
  };
  try {
    await verb();
  } finally {
    Object.assign(statement, { all, run });
  }
  return sent;
}

export interface RecordingMysql {
  dataSource: DataSource;
  /** What `verb` sends, a round trip at a time; its reads are answered with `reads`, in order. */
  sent(verb: () => Promise<unknown>, reads: Rows[]): Promise<string[]>;
}

/**
 * A MySQL data source without a server: TypeORM's MySQL driver over a stand-in for mysql2 (its
 * pools, for TypeORM and the MultiStatementPool, and their connections) that records what each
 * verb sends. It answers a write with one changed row (for each statement of a round trip), and a
 * read with the next rows it was given: what the same read got on SQLite, so that a verb takes the
 * same path on both.
 */
export async function recordingMysql(): Promise<RecordingMysql> {
  let calls: string[] | undefined;
  let reads: Rows[] = [];
  const answer = (sql: string): unknown => {
    if (sql === 'SELECT version()') return [{ 'version()': '10.11.0-MariaDB' }];
    // Asked once per pool (galeraNodeOf): a single server, not a Galera node; not a verb's SQL.
    if (sql.startsWith('SHOW VARIABLES')) return [];
    calls?.push(sql);
    if (sql.includes(';\n')) return sql.split(';\n').map(() => ({ affectedRows: 1 }));
    return sql.startsWith('SELECT ') ? (reads.shift() ?? []) : { affectedRows: 1 };
  };
  const query = (sql: string | { sql: string }, _params: unknown, done: (error: null, result: unknown) => void) =>
    setImmediate(() => done(null, answer(typeof sql === 'string' ? sql : sql.sql)));
  const connection = { query, release() {}, destroy() {}, listeners: () => [], on() {} };
  const pool = {
    query,
    execute: query,
    getConnection: (done: (error: null, taken: unknown) => void) => done(null, connection),
    end: (done?: () => void) => done?.(),
  };
  const options = dataSourceOptions({
    database: { type: 'mysql', url: 'mysql://snapshots@localhost/snapshots' },
    migrationsRun: false,
  });
  const dataSource = await new ClusteredDataSource({
    ...options,
    driver: { createPool: () => pool },
  } as typeof options).initialize();
  return {
    dataSource,
    async sent(verb, answers) {
      calls = [];
      reads = [...answers];
      try {
        await verb();
        return calls;
      } finally {
        calls = undefined;
      }
    },
  };
}

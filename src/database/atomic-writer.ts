import { Injectable } from '@nestjs/common';
import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { MultiStatementPool, Statement } from './multi-statement-pool';
import { isConnectionFailure, MysqlConnection, Row, sqliteDatabaseOf } from './prepared-statements';
import { retryingWriteConflicts } from './write-conflicts';

export type Insert = [target: EntityTarget<ObjectLiteral>, values: ObjectLiteral];

export type { Statement };

/** What `updateThenRead` found: whether the update changed its row, and the read's rows after it. */
export interface UpdateThenRead {
  changed: boolean;
  rows: Row[];
}

/**
 * An UPDATE that must change exactly one row for the inserts to happen (a compare-and-set): SQL
 * that both dialects read, with `?` parameters (dates as `sqlTimestamp`).
 */
export type RequiredUpdate = Statement;

/** A SELECT (SQL that both dialects read, with `?` parameters) whose finding any row holds a write back. */
export type HoldingQuery = Statement;

/**
 * Inserts rows into several tables in one transaction: all of them or none. With `onlyIf`, that
 * UPDATE runs first in the same transaction, and when it changes no row nothing is written and
 * the answer is false: of parallel calls with the same condition, exactly one goes through.
 *
 * These writes are on every invite and accept, the paths that carry load (docs/benchmark.md), where
 * the round trips to the database cost more than the statements. The inserts are built from the
 * entities' metadata, once per table and column list, and everything runs on the driver itself:
 * - MySQL: the whole transaction in one round trip, `START TRANSACTION; UPDATE …; INSERT …; COMMIT`,
 *   on a connection of the MultiStatementPool (on a Galera node a statement a round trip, as
 *   `MultiStatementPool.inOrder` says why). The inserts after a compare-and-set are
 *   `INSERT … SELECT … WHERE @changed = 1`, so that a lost race writes nothing.
 * - SQLite: TypeORM's better-sqlite3 driver runs every query of the DataSource on one shared
 *   connection, so an asynchronous transaction would take in whatever other requests run meanwhile
 *   (and nest concurrent transactions). The statements run instead inside one synchronous
 *   better-sqlite3 transaction, which nothing can interleave.
 */
@Injectable()
export class AtomicWriter {
  /** Each table's columns, from the entity's metadata. */
  private readonly tables = new Map<EntityTarget<ObjectLiteral>, { name: string; columns: ColumnMetadata[] }>();
  /** INSERT statements by table and column list: `INSERT INTO t (a, b)` and its `?, ?`. */
  private readonly insertSql = new Map<string, { into: string; placeholders: string }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly pool: MultiStatementPool,
  ) {}

  async insert(inserts: Insert[], onlyIf?: RequiredUpdate): Promise<boolean> {
    if (this.dataSource.options.type === 'better-sqlite3') return this.runOnSqlite(inserts, onlyIf ? [onlyIf] : []);
    return this.runInOneRoundTrip(inserts, onlyIf);
  }

  /**
   * As `insert`, after several compare-and-sets that must each change exactly one row, in order:
   * when one does not, the whole transaction is undone and the answer is false. Each UPDATE's
   * WHERE is its last clause, without a top-level OR (on MySQL, `AND @changed = 1` is appended).
   * On MySQL this takes two round trips: the statements, then COMMIT or ROLLBACK as their counts say.
   * `deletes`: DELETEs (or UPDATEs) whose counts do not matter, run after the compare-and-sets and
   * before the inserts, in the same transaction (rows that a replacement takes away, say); each
   * WHERE is its last clause, as the compare-and-sets'.
   */
  async insertIfAll(inserts: Insert[], required: RequiredUpdate[], deletes: Statement[] = []): Promise<boolean> {
    if (this.dataSource.options.type === 'better-sqlite3')
      return this.runOnSqlite(inserts, required, undefined, deletes);
    if (required.length <= 1) return this.runInOneRoundTrip(inserts, required[0], deletes);
    return this.runInTwoRoundTrips(inserts, required, deletes);
  }

  /**
   * As `insert`, unless `holdBack` finds a row, read in the same transaction: then nothing is
   * written and the answer is false. On MySQL one round trip.
   */
  async insertUnless(inserts: Insert[], holdBack: HoldingQuery): Promise<boolean> {
    if (this.dataSource.options.type === 'better-sqlite3') return this.runOnSqlite(inserts, [], holdBack);
    const [sql, parameters] = holdBack;
    const statements: Statement[] = [
      ['START TRANSACTION', []],
      [`SET @changed = NOT EXISTS (${sql})`, parameters],
      ...inserts.map((insert) => this.insertStatement(insert, true)),
      ['COMMIT', []],
    ];
    return this.onConnection(
      async (connection) => (await this.pool.inOrder(connection, statements))[2].affectedRows === 1,
    );
  }

  /**
   * MySQL only: a compare-and-set, the statements that it guards (each with `@changed = 1` in its
   * WHERE, as `INSERT … SELECT … WHERE @changed = 1`), then, after the commit, a read: all in one
   * round trip. Whether the update changed its row, and what the read finds after it. Where the
   * guarded rows can be built from the database's own rows, this saves the read before a change.
   */
  async updateThenRead(update: RequiredUpdate, guarded: Statement[], read: Statement): Promise<UpdateThenRead> {
    const statements: Statement[] = [
      ['START TRANSACTION', []],
      update,
      ['SET @changed = ROW_COUNT()', []],
      ...guarded,
      ['COMMIT', []],
      read,
    ];
    return this.onConnection(async (connection) => {
      const results = await this.pool.inOrder(connection, statements);
      return { changed: results[1].affectedRows === 1, rows: results[statements.length - 1] as unknown as Row[] };
    });
  }

  /**
   * One row's INSERT: the columns whose value is given (the others take their defaults), each value
   * prepared by the driver as TypeORM prepares it (dates, for instance), with `?` placeholders.
   * `guarded`: the row is inserted only if the preceding compare-and-set changed its row.
   */
  private insertStatement([target, values]: Insert, guarded: boolean): Statement {
    const { driver } = this.dataSource;
    const table = this.tableOf(target);
    // The entities' columns are plain properties (no embedded entities, relations or transformers):
    // a row's value is read as such, not through ColumnMetadata.getEntityValue, twice per column.
    const columns = table.columns.filter((column) => values[column.propertyName] !== undefined);
    const key = `${table.name}(${columns.map((column) => column.databaseName).join(',')})`;
    let sql = this.insertSql.get(key);
    if (!sql) {
      const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
      sql = {
        into: `INSERT INTO ${driver.escape(table.name)} (${names})`,
        placeholders: columns.map(() => '?').join(', '),
      };
      this.insertSql.set(key, sql);
    }
    const text = guarded
      ? `${sql.into} SELECT ${sql.placeholders} FROM DUAL WHERE @changed = 1`
      : `${sql.into} VALUES (${sql.placeholders})`;
    return [text, columns.map((column) => driver.preparePersistentValue(values[column.propertyName], column))];
  }

  /** The entity's table name and columns, read from TypeORM's metadata once. */
  private tableOf(target: EntityTarget<ObjectLiteral>): { name: string; columns: ColumnMetadata[] } {
    let table = this.tables.get(target);
    if (!table) {
      const metadata = this.dataSource.getMetadata(target);
      table = { name: metadata.tableName, columns: metadata.columns };
      this.tables.set(target, table);
    }
    return table;
  }

  private runOnSqlite(
    inserts: Insert[],
    updates: Statement[],
    holdBack?: HoldingQuery,
    deletes: Statement[] = [],
  ): boolean {
    const statements = inserts.map((insert) => this.insertStatement(insert, false));
    const connection = sqliteDatabaseOf(this.dataSource);
    try {
      // BEGIN IMMEDIATE: the transaction takes the write lock first, waiting for another process's
      // within the busy timeout. A deferred one that reads first (holdBack) and then writes fails at
      // once with SQLITE_BUSY ("database is locked") when another process wrote meanwhile: SQLite
      // cannot wait for a lock while holding an older snapshot.
      connection
        .transaction(() => {
          if (holdBack && connection.prepare(holdBack[0]).all(...holdBack[1]).length > 0) throw UNCHANGED;
          for (const [sql, parameters] of updates)
            if (connection.prepare(sql).run(...parameters).changes !== 1) throw UNCHANGED;
          for (const [sql, parameters] of deletes) connection.prepare(sql).run(...parameters);
          for (const [sql, parameters] of statements) connection.prepare(sql).run(...parameters);
        })
        .immediate();
    } catch (error) {
      // Thrown out of the transaction function, so that better-sqlite3 rolls back what ran before it.
      if (error === UNCHANGED) return false;
      throw error;
    }
    return true;
  }

  private async runInOneRoundTrip(
    inserts: Insert[],
    update: Statement | undefined,
    deletes: Statement[] = [],
  ): Promise<boolean> {
    const statements: Statement[] = [['START TRANSACTION', []]];
    if (update) statements.push(update, ['SET @changed = ROW_COUNT()', []]);
    statements.push(...deletes.map((statement) => (update ? onlyIfChanged(statement) : statement)));
    for (const insert of inserts) statements.push(this.insertStatement(insert, update !== undefined));
    statements.push(['COMMIT', []]);
    return this.onConnection(async (connection) => {
      const results = await this.pool.inOrder(connection, statements);
      return !update || results[1].affectedRows === 1;
    });
  }

  /**
   * Each UPDATE after the first runs only while those before it changed their row (`@changed`),
   * and so do the inserts; whether to commit is decided on the UPDATEs' counts.
   */
  private async runInTwoRoundTrips(inserts: Insert[], updates: Statement[], deletes: Statement[]): Promise<boolean> {
    const statements: Statement[] = [['START TRANSACTION', []]];
    const counted: number[] = [];
    updates.forEach((update, index) => {
      counted.push(statements.length);
      statements.push(index === 0 ? update : onlyIfChanged(update), ['SET @changed = ROW_COUNT()', []]);
    });
    statements.push(...deletes.map(onlyIfChanged));
    for (const insert of inserts) statements.push(this.insertStatement(insert, true));
    return this.onConnection(async (connection) => {
      const results = await this.pool.inOrder(connection, statements);
      const applied = counted.every((index) => results[index].affectedRows === 1);
      await this.pool.inOrder(connection, [[applied ? 'COMMIT' : 'ROLLBACK', []]]);
      return applied;
    });
  }

  /**
   * Runs a transaction on a connection of the pool, undoing what ran when a statement fails. One
   * that lost a write conflict (a deadlock; on Galera, a failed certification) is run again from
   * its start (retryingWriteConflicts): every transaction here is whole in its statements, built
   * before it runs, so a retry writes what the first attempt would have, or finds the row taken.
   */
  private onConnection<T>(transaction: (connection: MysqlConnection) => Promise<T>): Promise<T> {
    return retryingWriteConflicts(() => this.onConnectionOnce(transaction));
  }

  private async onConnectionOnce<T>(transaction: (connection: MysqlConnection) => Promise<T>): Promise<T> {
    const connection = await this.pool.connection();
    let broken = false;
    try {
      return await transaction(connection);
    } catch (error) {
      // A statement failed and those after it did not run: undo what ran. A connection that failed
      // for good has rolled back already, and is not handed to the next request.
      broken = isConnectionFailure(error);
      if (!broken) await this.pool.inOrder(connection, [['ROLLBACK', []]]).catch(() => (broken = true));
      throw error;
    } finally {
      if (broken) connection.destroy();
      else connection.release();
    }
  }
}

/** The statement, run only while the compare-and-sets before it changed their rows: its WHERE is its last clause. */
const onlyIfChanged = ([sql, parameters]: Statement): Statement => [`${sql} AND @changed = 1`, parameters];

/** Thrown inside a SQLite transaction to undo it when a compare-and-set changed no row. */
const UNCHANGED = Symbol('unchanged');

import { Injectable } from '@nestjs/common';
import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { MultiStatementPool, StatementResult } from './multi-statement-pool';
import { MysqlConnection, MysqlError, sqliteDatabaseOf } from './prepared-statements';

export type Insert = [target: EntityTarget<ObjectLiteral>, values: ObjectLiteral];

type Statement = [sql: string, parameters: unknown[]];

/**
 * An UPDATE that must change exactly one row for the inserts to happen (a compare-and-set): SQL
 * that both dialects read, with `?` parameters (dates as `sqlTimestamp`).
 */
export type RequiredUpdate = Statement;

/**
 * Inserts rows into several tables in one transaction: all of them or none. With `onlyIf`, that
 * UPDATE runs first in the same transaction, and when it changes no row nothing is written and
 * the answer is false: of parallel calls with the same condition, exactly one goes through.
 *
 * These writes are on every invite and accept (issue 11), where the round trips to the database
 * cost more than the statements. The inserts are built from the entities' metadata, once per table
 * and column list, and everything runs on the driver itself:
 * - MySQL: the whole transaction in one round trip, `START TRANSACTION; UPDATE …; INSERT …; COMMIT`,
 *   on a connection of the MultiStatementPool. The inserts after a compare-and-set are
 *   `INSERT … SELECT … WHERE @changed = 1`, so that a lost race writes nothing.
 * - SQLite: TypeORM's better-sqlite3 driver runs every query of the DataSource on one shared
 *   connection, so an asynchronous transaction would take in whatever other requests run meanwhile
 *   (and nest concurrent transactions). The statements run instead inside one synchronous
 *   better-sqlite3 transaction, which nothing can interleave.
 */
@Injectable()
export class AtomicWriter {
  /** INSERT statements by table and column list: `INSERT INTO t (a, b)` and its `?, ?`. */
  private readonly insertSql = new Map<string, { into: string; placeholders: string }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly pool: MultiStatementPool,
  ) {}

  async insert(inserts: Insert[], onlyIf?: RequiredUpdate): Promise<boolean> {
    if (this.dataSource.options.type === 'better-sqlite3') return this.runOnSqlite(inserts, onlyIf);
    return this.runInOneRoundTrip(inserts, onlyIf);
  }

  /**
   * One row's INSERT: the columns whose value is given (the others take their defaults), each value
   * prepared by the driver as TypeORM prepares it (dates, for instance), with `?` placeholders.
   * `guarded`: the row is inserted only if the preceding compare-and-set changed its row.
   */
  private insertStatement([target, values]: Insert, guarded: boolean): Statement {
    const { driver } = this.dataSource;
    const metadata = this.dataSource.getMetadata(target);
    const columns = metadata.columns.filter((column) => column.getEntityValue(values) !== undefined);
    const key = `${metadata.tableName}(${columns.map((column) => column.databaseName).join(',')})`;
    let sql = this.insertSql.get(key);
    if (!sql) {
      const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
      sql = {
        into: `INSERT INTO ${driver.escape(metadata.tableName)} (${names})`,
        placeholders: columns.map(() => '?').join(', '),
      };
      this.insertSql.set(key, sql);
    }
    const text = guarded
      ? `${sql.into} SELECT ${sql.placeholders} FROM DUAL WHERE @changed = 1`
      : `${sql.into} VALUES (${sql.placeholders})`;
    return [text, columns.map((column) => driver.preparePersistentValue(column.getEntityValue(values), column))];
  }

  private runOnSqlite(inserts: Insert[], update: Statement | undefined): boolean {
    const statements = inserts.map((insert) => this.insertStatement(insert, false));
    const connection = sqliteDatabaseOf(this.dataSource);
    let applied = true;
    connection.transaction(() => {
      applied = !update || connection.prepare(update[0]).run(...update[1]).changes === 1;
      if (applied) for (const [sql, parameters] of statements) connection.prepare(sql).run(...parameters);
    })();
    return applied;
  }

  private async runInOneRoundTrip(inserts: Insert[], update: Statement | undefined): Promise<boolean> {
    const statements: Statement[] = [['START TRANSACTION', []]];
    if (update) statements.push(update, ['SET @changed = ROW_COUNT()', []]);
    for (const insert of inserts) statements.push(this.insertStatement(insert, update !== undefined));
    statements.push(['COMMIT', []]);
    const connection = await this.pool.connection();
    let broken = false;
    try {
      const results = await query(
        connection,
        statements.map(([sql]) => sql).join(';\n'),
        statements.flatMap(([, parameters]) => parameters),
      );
      return !update || results[1].affectedRows === 1;
    } catch (error) {
      // A statement failed and those after it did not run: undo what ran. A connection that failed
      // for good has rolled back already, and is not handed to the next request.
      broken = (error as MysqlError).fatal === true;
      if (!broken) await query(connection, 'ROLLBACK', []).catch(() => (broken = true));
      throw error;
    } finally {
      if (broken) connection.destroy();
      else connection.release();
    }
  }
}

const query = (connection: MysqlConnection, sql: string, parameters: unknown[]) =>
  new Promise<StatementResult[]>((resolve, reject) =>
    connection.query(sql, parameters, (error, results) =>
      error ? reject(error) : resolve(results as unknown as StatementResult[]),
    ),
  );

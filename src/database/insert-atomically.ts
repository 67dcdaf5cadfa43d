import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { MysqlConnection, MysqlError, mysqlPoolOf, sqliteDatabaseOf } from './prepared-statements';

export type Insert = [target: EntityTarget<ObjectLiteral>, values: ObjectLiteral];

/** An UPDATE that must change exactly one row for the inserts to happen (a compare-and-set). */
export interface RequiredUpdate {
  target: EntityTarget<ObjectLiteral>;
  set: ObjectLiteral;
  /** SQL on the target's property names with `:named` parameters, or a where object (find operators too). */
  where: string | ObjectLiteral;
  parameters?: ObjectLiteral;
}

/** Thrown inside the transaction to roll it back when the required update changed nothing. */
class UpdateNotApplied extends Error {}

/**
 * Inserts rows into several tables in one transaction: all of them or none. With `onlyIf`, that
 * UPDATE runs first in the same transaction, and when it changes no row nothing is written and
 * the answer is false: of parallel calls with the same condition, exactly one goes through.
 *
 * The statements are built by TypeORM's query builder and run on the driver itself: these writes
 * are on every invite and accept (issue 11), and TypeORM's transaction and entity-insert machinery
 * cost more than the statements.
 * MySQL: a transaction on a connection of its own from TypeORM's mysql2 pool.
 * SQLite: TypeORM's better-sqlite3 driver runs every query of the DataSource on one shared
 * connection, so an asynchronous transaction would take in whatever other requests run meanwhile
 * (and nest concurrent transactions). The statements run instead inside one synchronous
 * better-sqlite3 transaction, which nothing can interleave.
 */
export async function insertAtomically(dataSource: DataSource, inserts: Insert[], onlyIf?: RequiredUpdate): Promise<boolean> {
  try {
    if (dataSource.options.type === 'better-sqlite3') runOnSqlite(dataSource, inserts, onlyIf);
    else await runInTransaction(dataSource, inserts, onlyIf);
    return true;
  } catch (error) {
    if (error instanceof UpdateNotApplied) return false;
    throw error;
  }
}

type Statement = [sql: string, parameters: unknown[]];

const updateStatement = (dataSource: DataSource, { target, set, where, parameters }: RequiredUpdate): Statement =>
  dataSource.createQueryBuilder().update(target).set(set).where(where, parameters).getQueryAndParameters();

/** INSERT statements by table and column list: made once, from the entity's metadata. */
const insertSql = new WeakMap<DataSource, Map<string, string>>();

/**
 * One row's INSERT: the columns whose value is given (the others take their defaults), each value
 * prepared by the driver as TypeORM prepares it (dates, for instance), with `?` placeholders.
 */
function insertStatement(dataSource: DataSource, [target, values]: Insert): Statement {
  const { driver } = dataSource;
  const metadata = dataSource.getMetadata(target);
  const columns = metadata.columns.filter((column) => column.getEntityValue(values) !== undefined);
  const key = `${metadata.tableName}(${columns.map((column) => column.databaseName).join(',')})`;
  let statements = insertSql.get(dataSource);
  if (!statements) insertSql.set(dataSource, (statements = new Map()));
  let sql = statements.get(key);
  if (!sql) {
    const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
    sql = `INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES (${columns.map(() => '?').join(', ')})`;
    statements.set(key, sql);
  }
  return [sql, columns.map((column) => driver.preparePersistentValue(column.getEntityValue(values), column))];
}

function runOnSqlite(dataSource: DataSource, inserts: Insert[], onlyIf?: RequiredUpdate): void {
  const update = onlyIf && updateStatement(dataSource, onlyIf);
  const statements = inserts.map((insert) => insertStatement(dataSource, insert));
  const connection = sqliteDatabaseOf(dataSource);
  connection.transaction(() => {
    if (update && connection.prepare(update[0]).run(...update[1]).changes !== 1) throw new UpdateNotApplied();
    for (const [sql, parameters] of statements) connection.prepare(sql).run(...parameters);
  })();
}

async function runInTransaction(dataSource: DataSource, inserts: Insert[], onlyIf?: RequiredUpdate): Promise<void> {
  const update = onlyIf && updateStatement(dataSource, onlyIf);
  const statements = inserts.map((insert) => insertStatement(dataSource, insert));
  const pool = mysqlPoolOf(dataSource);
  const connection = await new Promise<MysqlConnection>((resolve, reject) =>
    pool.getConnection((error, taken) => (error ? reject(error) : resolve(taken))),
  );
  const run = (sql: string, parameters: unknown[] = []) =>
    new Promise<{ affectedRows?: number }>((resolve, reject) =>
      connection.query(sql, parameters, (error, result) => (error ? reject(error) : resolve(result))),
    );
  let broken = false;
  try {
    await run('START TRANSACTION');
    try {
      if (update && (await run(...update)).affectedRows !== 1) throw new UpdateNotApplied();
      for (const statement of statements) await run(...statement);
      await run('COMMIT');
    } catch (error) {
      await run('ROLLBACK').catch(() => undefined); // a lost connection has rolled back already
      throw error;
    }
  } catch (error) {
    broken = (error as MysqlError).fatal === true;
    throw error;
  } finally {
    // A connection that failed for good is not handed to the next request.
    if (broken) connection.destroy();
    else connection.release();
  }
}

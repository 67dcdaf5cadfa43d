import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/** The part of a better-sqlite3 connection used here. */
interface SqliteConnection {
  prepare(sql: string): { run(...parameters: unknown[]): { changes: number } };
  transaction(work: () => void): () => void;
}

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
 * MySQL: a TypeORM transaction on a connection of its own from the pool.
 * SQLite: TypeORM's better-sqlite3 driver runs every query of the DataSource on one shared
 * connection, so an asynchronous transaction would take in whatever other requests run meanwhile
 * (and nest concurrent transactions). The statements, built by TypeORM, run instead inside one
 * synchronous better-sqlite3 transaction, which nothing can interleave.
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

function runOnSqlite(dataSource: DataSource, inserts: Insert[], onlyIf?: RequiredUpdate): void {
  const update = onlyIf && dataSource.createQueryBuilder().update(onlyIf.target).set(onlyIf.set).where(onlyIf.where, onlyIf.parameters).getQueryAndParameters();
  const statements = inserts.map(([target, values]) => dataSource.createQueryBuilder().insert().into(target).values(values).getQueryAndParameters());
  const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  connection.transaction(() => {
    if (update && connection.prepare(update[0]).run(...update[1]).changes !== 1) throw new UpdateNotApplied();
    for (const [sql, parameters] of statements) connection.prepare(sql).run(...parameters);
  })();
}

async function runInTransaction(dataSource: DataSource, inserts: Insert[], onlyIf?: RequiredUpdate): Promise<void> {
  await dataSource.transaction(async (manager) => {
    if (onlyIf) {
      const result = await manager.createQueryBuilder().update(onlyIf.target).set(onlyIf.set).where(onlyIf.where, onlyIf.parameters).execute();
      if (result.affected !== 1) throw new UpdateNotApplied();
    }
    for (const [target, values] of inserts) await manager.insert(target, values);
    return true;
  });
}

import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/** The part of a better-sqlite3 connection used here. */
interface SqliteConnection {
  prepare(sql: string): { run(...parameters: unknown[]): { changes: number } };
  transaction<T>(work: () => T): () => T;
}

export type Insert = [target: EntityTarget<ObjectLiteral>, values: ObjectLiteral];

/**
 * Inserts rows into several tables in one transaction: all of them or none.
 *
 * MySQL: a TypeORM transaction on a connection of its own from the pool.
 * SQLite: TypeORM's better-sqlite3 driver runs every query of the DataSource on one shared
 * connection, so an asynchronous transaction would take in whatever other requests run meanwhile
 * (and nest concurrent transactions). The statements, built by TypeORM, run instead inside one
 * synchronous better-sqlite3 transaction, which nothing can interleave.
 */
export async function insertAtomically(dataSource: DataSource, inserts: Insert[]): Promise<void> {
  await writeAtomically(dataSource, null, inserts);
}

/** A conditional UPDATE: the rows of `target` that match `where` get `set`. */
export type ConditionalUpdate = [target: EntityTarget<ObjectLiteral>, where: ObjectLiteral, set: ObjectLiteral];

/**
 * Runs the conditional update and, only when it changed exactly one row, the inserts, in one
 * transaction (see insertAtomically): a change and its record, or neither. True when it changed one.
 */
export async function updateThenInsertAtomically(dataSource: DataSource, update: ConditionalUpdate, inserts: Insert[]): Promise<boolean> {
  return writeAtomically(dataSource, update, inserts);
}

async function writeAtomically(dataSource: DataSource, update: ConditionalUpdate | null, inserts: Insert[]): Promise<boolean> {
  if (dataSource.options.type === 'better-sqlite3') {
    const updateStatement =
      update && dataSource.createQueryBuilder().update(update[0]).set(update[2]).where(update[1]).getQueryAndParameters();
    const statements = inserts.map(([target, values]) =>
      dataSource.createQueryBuilder().insert().into(target).values(values).getQueryAndParameters(),
    );
    const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    return connection.transaction(() => {
      if (updateStatement && connection.prepare(updateStatement[0]).run(...updateStatement[1]).changes !== 1) return false;
      for (const [sql, parameters] of statements) connection.prepare(sql).run(...parameters);
      return true;
    })();
  }
  return dataSource.transaction(async (manager) => {
    if (update && (await manager.update(update[0], update[1], update[2])).affected !== 1) return false;
    for (const [target, values] of inserts) await manager.insert(target, values);
    return true;
  });
}

import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/** The part of a better-sqlite3 connection used here. */
interface SqliteConnection {
  prepare(sql: string): { run(...parameters: unknown[]): unknown };
  transaction(work: () => void): () => void;
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
  if (dataSource.options.type === 'better-sqlite3') {
    const statements = inserts.map(([target, values]) =>
      dataSource.createQueryBuilder().insert().into(target).values(values).getQueryAndParameters(),
    );
    const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    connection.transaction(() => {
      for (const [sql, parameters] of statements) connection.prepare(sql).run(...parameters);
    })();
    return;
  }
  await dataSource.transaction(async (manager) => {
    for (const [target, values] of inserts) await manager.insert(target, values);
  });
}

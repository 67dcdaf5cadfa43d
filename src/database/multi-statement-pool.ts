import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { failoverMysqlOf } from './failover-pool';
import { galeraNodeOf, MysqlConnection, MysqlPool, mysqlPoolOf } from './prepared-statements';

/** What a statement run by `query` answers: a write's count of changed rows. */
export interface StatementResult {
  affectedRows?: number;
}

/** One statement: its SQL, with `?` placeholders, and their values. */
export type Statement = [sql: string, parameters: unknown[]];

/**
 * On MySQL, a second mysql2 pool, with TypeORM's connection settings, that takes several statements
 * in one query: for the writes on the paths that carry load (docs/benchmark.md), whose round trips
 * to the database cost more than the statements. TypeORM's own pool does not allow it, so that every
 * other query keeps that protection against injected statements; here values are escaped by
 * mysql2 (TypeORM's settings, objects never expanded) and nothing is interpolated.
 * Opened on first use, closed at shutdown, after the workers (the database module is global, and
 * global modules shut down last).
 *
 * On a Galera node its connections are causal (`wsrep_sync_wait = 3`: reads, updates and deletes
 * first wait until the node has applied what the cluster committed before them), so that a
 * compare-and-set made through one node sees a change made through another: the accept of an
 * invitation created a moment before on another node finds it, and its loser finds it taken.
 * And there each statement goes in a round trip of its own: MariaDB Galera (10.11) does not
 * report a transaction that a replicated write aborted (brute-force abort) in the middle of a
 * multi-statement query. Its COMMIT answers OK although nothing was committed, or the statements
 * after the abort run outside the transaction; sent one by one, the next one answers 1213 as it
 * should (docs/deploying.md, "Clustered MySQL and Redis"; measured with the cluster suite).
 */
@Injectable()
export class MultiStatementPool implements OnApplicationShutdown {
  private pool?: MultiStatementMysqlPool;
  private opening?: Promise<MultiStatementMysqlPool>;

  /** Whether the server is a Galera node: known once the pool is open. */
  private galera = false;

  constructor(private readonly dataSource: DataSource) {}

  /** A connection of its own, for a transaction: `release()` it, or `destroy()` it when it failed for good. */
  async connection(): Promise<MysqlConnection> {
    const pool = this.pool ?? (await this.opened());
    return new Promise((resolve, reject) =>
      pool.getConnection((error, taken) => (error ? reject(error) : resolve(taken))),
    );
  }

  /**
   * Runs the statements, each committing on its own: the result of each. Joined by `;` in one
   * round trip, where a failing one leaves those before it standing and those after it not run;
   * on Galera each on its own, all at once. When one fails, the answer is its error.
   */
  async query(statements: Statement[]): Promise<StatementResult[]> {
    const pool = this.pool ?? (await this.opened());
    if (this.galera)
      return Promise.all(statements.map((statement) => run(pool, [statement]).then(([result]) => result)));
    return run(pool, statements);
  }

  /**
   * Runs a transaction's statements on `connection` (from `connection()`), in order: in one round
   * trip, or one by one on Galera. When one fails, those after it do not run, and the answer is its error.
   */
  async inOrder(connection: MysqlConnection, statements: Statement[]): Promise<StatementResult[]> {
    if (!this.galera) return run(connection, statements);
    const results: StatementResult[] = [];
    for (const statement of statements) results.push(...(await run(connection, [statement])));
    return results;
  }

  onApplicationShutdown(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.opening = undefined;
    return new Promise((resolve) => (pool ? pool.end(() => resolve()) : resolve()));
  }

  /** The pool, made once it is known whether the server is a Galera node (asked on TypeORM's pool). */
  private opened(): Promise<MultiStatementMysqlPool> {
    this.opening ??= galeraNodeOf(mysqlPoolOf(this.dataSource)).then(
      (galera) => {
        const pool = failoverMysqlOf(this.dataSource).anotherPool({
          multipleStatements: true,
        }) as MultiStatementMysqlPool;
        this.galera = galera !== false;
        // Sent on each new connection before anything else.
        if (galera) {
          pool.on('connection', (connection) =>
            connection.query('SET SESSION wsrep_sync_wait = 3', [], () => undefined),
          );
        }
        return (this.pool = pool);
      },
      (error: unknown) => {
        this.opening = undefined; // asked again on the next use
        throw error;
      },
    );
    return this.opening;
  }
}

/** The statements joined by `;`, their parameters in order, in one query: the result of each. */
const run = (target: MysqlPool | MysqlConnection, statements: Statement[]) =>
  new Promise<StatementResult[]>((resolve, reject) =>
    target.query(
      statements.map(([sql]) => sql).join(';\n'),
      statements.flatMap(([, parameters]) => parameters),
      (error, results) => {
        if (error) reject(error);
        // One statement answers its result itself, several an array of theirs.
        else resolve(statements.length === 1 ? [results as StatementResult] : (results as StatementResult[]));
      },
    ),
  );

type MultiStatementMysqlPool = MysqlPool & {
  end(done: () => void): void;
  on(event: 'connection', listener: (connection: MysqlConnection) => void): void;
};

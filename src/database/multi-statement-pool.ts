import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, ObjectLiteral } from 'typeorm';
import { galeraNodeOf, MysqlConnection, MysqlPool, mysqlPoolOf } from './prepared-statements';

/** What a statement run by `query` answers: a write's count of changed rows. */
export interface StatementResult {
  affectedRows?: number;
}

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
 */
@Injectable()
export class MultiStatementPool implements OnApplicationShutdown {
  private pool?: MultiStatementMysqlPool;
  private opening?: Promise<MultiStatementMysqlPool>;

  constructor(private readonly dataSource: DataSource) {}

  /** A connection of its own, for a transaction: `release()` it, or `destroy()` it when it failed for good. */
  async connection(): Promise<MysqlConnection> {
    const pool = this.pool ?? (await this.opened());
    return new Promise((resolve, reject) =>
      pool.getConnection((error, taken) => (error ? reject(error) : resolve(taken))),
    );
  }

  /**
   * Runs the statements, joined by `;`, in one round trip, each committing on its own: the result of
   * each. When one fails, those before it stand, those after it do not run, and the answer is its error.
   */
  async query(statements: string[], parameters: unknown[]): Promise<StatementResult[]> {
    const pool = this.pool ?? (await this.opened());
    return new Promise((resolve, reject) =>
      pool.query(statements.join(';\n'), parameters, (error, results) => {
        if (error) reject(error);
        // One statement answers its result itself, several an array of theirs.
        else resolve(statements.length === 1 ? [results as StatementResult] : (results as StatementResult[]));
      }),
    );
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
        const driver = this.dataSource.driver as unknown as MysqlDriverInternals;
        const pool = driver.mysql.createPool(
          driver.createConnectionOptions({ ...driver.options, multipleStatements: true }, driver.options),
        );
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

type MultiStatementMysqlPool = MysqlPool & {
  end(done: () => void): void;
  on(event: 'connection', listener: (connection: MysqlConnection) => void): void;
};

/** TypeORM's MysqlDriver: its mysql2 module and how it turns its options into a pool's. */
interface MysqlDriverInternals {
  options: ObjectLiteral;
  mysql: { createPool(options: ObjectLiteral): MultiStatementMysqlPool };
  createConnectionOptions(options: ObjectLiteral, credentials: ObjectLiteral): ObjectLiteral;
}

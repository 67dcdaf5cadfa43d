import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, ObjectLiteral } from 'typeorm';
import { MysqlConnection, MysqlPool } from './prepared-statements';

/** What a statement run by `query` answers: a write's count of changed rows. */
export interface StatementResult {
  affectedRows?: number;
}

/**
 * On MySQL, a second mysql2 pool, with TypeORM's connection settings, that takes several statements
 * in one query: for the writes on the paths that carry load (issue 11), whose round trips to the
 * database cost more than the statements. TypeORM's own pool does not allow it, so that every
 * other query keeps that protection against injected statements; here values are escaped by
 * mysql2 (TypeORM's settings, objects never expanded) and nothing is interpolated.
 * Opened on first use, closed at shutdown, after the workers (the database module is global, and
 * global modules shut down last).
 */
@Injectable()
export class MultiStatementPool implements OnApplicationShutdown {
  private pool?: MysqlPool & { end(done: () => void): void };

  constructor(private readonly dataSource: DataSource) {}

  /** A connection of its own, for a transaction: `release()` it, or `destroy()` it when it failed for good. */
  connection(): Promise<MysqlConnection> {
    const pool = this.opened();
    return new Promise((resolve, reject) =>
      pool.getConnection((error, taken) => (error ? reject(error) : resolve(taken))),
    );
  }

  /**
   * Runs the statements, joined by `;`, in one round trip, each committing on its own: the result of
   * each. When one fails, those before it stand, those after it do not run, and the answer is its error.
   */
  query(statements: string[], parameters: unknown[]): Promise<StatementResult[]> {
    const pool = this.opened();
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
    return new Promise((resolve) => (pool ? pool.end(() => resolve()) : resolve()));
  }

  private opened() {
    if (!this.pool) {
      const driver = this.dataSource.driver as unknown as MysqlDriverInternals;
      this.pool = driver.mysql.createPool(
        driver.createConnectionOptions({ ...driver.options, multipleStatements: true }, driver.options),
      );
    }
    return this.pool;
  }
}

/** TypeORM's MysqlDriver: its mysql2 module and how it turns its options into a pool's. */
interface MysqlDriverInternals {
  options: ObjectLiteral;
  mysql: { createPool(options: ObjectLiteral): MysqlPool & { end(done: () => void): void } };
  createConnectionOptions(options: ObjectLiteral, credentials: ObjectLiteral): ObjectLiteral;
}

import { DataSource } from 'typeorm';
import { MultiStatementPool } from './multi-statement-pool';
import { PreparedStatements } from './prepared-statements';

interface Queued {
  sql: string;
  parameters: unknown[];
  resolve(changed: number): void;
  reject(error: unknown): void;
}

/**
 * UPDATEs sent together: on MySQL, those asked for in one turn of the event loop go in one round
 * trip (MultiStatementPool.query), each committing on its own. An outbox worker claims the rows of
 * a round, and releases those whose sends end together, in one round trip instead of one each.
 * On SQLite each runs at once: better-sqlite3 is synchronous, there is no round trip to save.
 *
 * When a statement of a batch fails, every caller in the batch gets the error, although the
 * statements before it did run. The outbox takes it as a failure of the database and recovers as
 * from one: a row its worker still holds is claimed again next round, a send not recorded is
 * recorded again.
 */
export class CoalescedUpdates {
  private queued: Queued[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
    private readonly pool: MultiStatementPool,
  ) {}

  /** The number of rows the UPDATE changed. */
  changes(sql: string, parameters: unknown[]): Promise<number> {
    if (this.dataSource.options.type !== 'mysql') return this.statements.changes(sql, parameters);
    return new Promise((resolve, reject) => {
      if (this.queued.push({ sql, parameters, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queued;
    this.queued = [];
    this.pool.query(batch.map(({ sql, parameters }) => [sql, parameters])).then(
      (results) => batch.forEach(({ resolve }, i) => resolve(results[i].affectedRows ?? 0)),
      (error: unknown) => batch.forEach(({ reject }) => reject(error)),
    );
  }
}

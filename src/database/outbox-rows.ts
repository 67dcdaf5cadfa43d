import { DataSource, EntityTarget, In, ObjectLiteral, Repository } from 'typeorm';
import { CoalescedUpdates } from './coalesced-updates';
import { MultiStatementPool } from './multi-statement-pool';
import { OutboxRowColumns } from './outbox-row-columns';
import { PreparedStatements, Row, sqlTimestamp, timestamp } from './prepared-statements';
import { SqlStore } from './sql-store';

/**
 * What becomes of a row that reached its receiver: it takes a status, and the column `atColumn`
 * records when (kept for operators until `purgeDone`); or it is deleted at once, for a table whose
 * unique keys must be free again as soon as its row is done.
 */
export type OutboxDone = { status: string; atColumn: string } | 'deleted';

const LAST_ERROR_LENGTH = 1_000;

/**
 * The delivery side of an outbox table, for any entity that extends OutboxRowColumns: it writes
 * no rows of its own. Rows are claimed one by one with a conditional UPDATE (a compare-and-set),
 * so that of several workers (in one instance or many) exactly one gets each row. A claim lapses
 * at `claimed_until`, when another worker may take the row over from one that died.
 */
@SqlStore()
export class OutboxRows<E extends OutboxRowColumns & ObjectLiteral> {
  /**
   * The claim and the release run on every delivery: those of a round are coalesced into one round
   * trip each. The read of what is due, on every round too, is a prepared statement.
   */
  private readonly updates: CoalescedUpdates;
  private sql?: { due: (limit: number) => string; claim: string; release: string; defer: string; remove: string };
  /** Each column's property and database names, and whether it holds a time: to read a row into an entity. */
  private columns?: { property: string; name: string; time: boolean }[];
  /** The rows of each worker's last `due`, by id: `claim` takes them from here instead of reading them again. */
  private readonly seen = new Map<string, Map<string, E>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
    pool: MultiStatementPool,
    private readonly entity: EntityTarget<E>,
    private readonly done: OutboxDone,
  ) {
    this.updates = new CoalescedUpdates(dataSource, statements, pool);
  }

  /** Built on first use, when the entity's metadata (its table) is known. */
  private get statementsSql() {
    const { tableName: table, columns } = this.dataSource.getMetadata(this.entity);
    const doneAt = this.done === 'deleted' ? '' : `${this.done.atColumn} = COALESCE(?, ${this.done.atColumn}), `;
    return (this.sql ??= {
      due: dueSql(table, columns.map((column) => column.databaseName).join(', ')),
      claim:
        `UPDATE ${table} SET status = 'sending', claimed_by = ?, claimed_until = ?, attempts = attempts + 1 ` +
        `WHERE id = ? AND ${CLAIMABLE}`,
      release:
        `UPDATE ${table} SET status = ?, next_attempt_at = COALESCE(?, next_attempt_at), last_error = COALESCE(?, last_error), ` +
        `${doneAt}claimed_by = NULL, claimed_until = NULL WHERE id = ? AND status = 'sending' AND claimed_by = ?`,
      defer:
        `UPDATE ${table} SET status = 'pending', next_attempt_at = ?, last_error = ?, attempts = attempts - 1, ` +
        `claimed_by = NULL, claimed_until = NULL WHERE id = ? AND status = 'sending' AND claimed_by = ?`,
      remove: `DELETE FROM ${table} WHERE id = ? AND status = 'sending' AND claimed_by = ?`,
    });
  }

  private get rows(): Repository<E> {
    return this.dataSource.getRepository(this.entity);
  }

  /**
   * Ids of rows that `worker` may claim at `now`, the longest due first: pending rows that are
   * due, rows whose claim has lapsed, and rows that `worker` itself still holds (it lost track
   * of them when the database failed under it, or is sending them now: the caller skips those).
   */
  async due(worker: string, now: Date, limit: number): Promise<string[]> {
    const at = sqlTimestamp(now);
    // The limit is written into the statement (a small integer of ours): a LIMIT parameter is not portable.
    const rows = (await this.statements.rows(this.statementsSql.due(Math.trunc(limit)), [at, at, worker])).map((row) =>
      this.toEntity(row),
    );
    this.seen.set(worker, new Map(rows.map((row) => [row.id, row])));
    return rows.map((row) => row.id);
  }

  /**
   * Claims the row for `worker` until `until` and counts an attempt; the row, or null when another
   * worker has it. A row that `due` has just read is claimed only if its attempt count is still the
   * one read (every claim raises it): the row read is then the row claimed, and is not read again.
   */
  async claim(id: string, worker: string, now: Date, until: Date): Promise<E | null> {
    const at = sqlTimestamp(now);
    const parameters = [worker, sqlTimestamp(until), id, at, at, worker];
    const read = this.seen.get(worker)?.get(id);
    this.seen.get(worker)?.delete(id);
    if (read) {
      const claimed = await this.updates.changes(`${this.statementsSql.claim} AND attempts = ?`, [
        ...parameters,
        read.attempts,
      ]);
      return claimed === 1
        ? { ...read, status: 'sending', claimedBy: worker, claimedUntil: until, attempts: read.attempts + 1 }
        : null;
    }
    const claimed = await this.updates.changes(this.statementsSql.claim, parameters);
    if (claimed !== 1) return null;
    return this.rows.findOneByOrFail({ id } as never);
  }

  /** Records the delivery; false when `worker` no longer held the row. */
  async markDone(id: string, worker: string, at: Date): Promise<boolean> {
    if (this.done === 'deleted') return (await this.updates.changes(this.statementsSql.remove, [id, worker])) === 1;
    return this.release(id, worker, { status: this.done.status, doneAt: at });
  }

  /** Puts the row back to be tried again at `at`. */
  async retryLater(id: string, worker: string, at: Date, error: string): Promise<boolean> {
    return this.release(id, worker, { status: 'pending', nextAttemptAt: at, lastError: error });
  }

  /** Puts the row back to be looked at again at `at`, without counting the claim as an attempt. */
  async defer(id: string, worker: string, at: Date, reason: string): Promise<boolean> {
    const parameters = [sqlTimestamp(at), reason.slice(0, LAST_ERROR_LENGTH), id, worker];
    return (await this.updates.changes(this.statementsSql.defer, parameters)) === 1;
  }

  /** Gives the row up for good. */
  async markFailed(id: string, worker: string, error: string): Promise<boolean> {
    return this.release(id, worker, { status: 'failed', lastError: error });
  }

  /** Deletes rows done before `before`; they are kept a while for operators (none are when done rows are deleted at once). */
  async purgeDone(before: Date): Promise<number> {
    const { done } = this;
    if (done === 'deleted') return 0;
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where(`status = :done AND ${done.atColumn} < :before`, { done: done.status, before })
      .execute();
    return result.affected ?? 0;
  }

  /** When the oldest row still waiting to be delivered (pending or being sent) was written; null when none is. */
  async oldestWaiting(): Promise<Date | null> {
    const row = await this.rows
      .createQueryBuilder('outbox')
      .select('MIN(outbox.created_at)', 'oldest')
      .where({ status: In(['pending', 'sending']) })
      .getRawOne<{ oldest: Date | string | null }>();
    if (!row?.oldest) return null;
    // SQLite answers an aggregate as the stored text, MySQL as a Date: both in UTC.
    return row.oldest instanceof Date ? row.oldest : new Date(`${row.oldest.replace(' ', 'T')}Z`);
  }

  /** A row as read by `statements`: the entity's properties, times as Dates. */
  private toEntity(row: Row): E {
    this.columns ??= this.dataSource.getMetadata(this.entity).columns.map((column) => ({
      property: column.propertyName,
      name: column.databaseName,
      time: column.type === 'datetime',
    }));
    const entity: Record<string, unknown> = {};
    for (const { property, name, time } of this.columns)
      entity[property] = time && row[name] !== null ? timestamp(row[name]) : row[name];
    return entity as E;
  }

  /** Ends `worker`'s claim with the new status; the other columns change only where given. */
  private async release(id: string, worker: string, changes: Release): Promise<boolean> {
    const { status, nextAttemptAt, lastError, doneAt } = changes;
    const parameters = [
      status,
      nextAttemptAt ? sqlTimestamp(nextAttemptAt) : null,
      lastError === undefined ? null : lastError.slice(0, LAST_ERROR_LENGTH),
      ...(this.done === 'deleted' ? [] : [doneAt ? sqlTimestamp(doneAt) : null]),
      id,
      worker,
    ];
    return (await this.updates.changes(this.statementsSql.release, parameters)) === 1;
  }
}

interface Release {
  status: string;
  nextAttemptAt?: Date;
  lastError?: string;
  doneAt?: Date;
}

/** Pending rows that are due; its parameter is the time. */
const PENDING_DUE = "status = 'pending' AND next_attempt_at <= ?";
/** Rows being sent whose claim has lapsed or is the worker's own; its parameters are the time, then the worker. */
const SENDING_CLAIMABLE = "status = 'sending' AND (claimed_until < ? OR claimed_by = ?)";
/** The rows that a worker may claim at a time (see `due`); its parameters are that time, twice, then the worker. */
const CLAIMABLE = `((${PENDING_DUE}) OR (${SENDING_CLAIMABLE}))`;

/**
 * The read of `due`, for a limit: CLAIMABLE (same parameters), the longest due first. Written as two
 * index range reads, each stopped at the limit, because the OR of CLAIMABLE makes MySQL read and sort
 * every pending row, so that a round would cost as much as the backlog is long (docs/benchmark.md).
 * Pending rows come by (status, next_attempt_at) in order; rows being sent, a few per worker, by
 * (status, claimed_until).
 */
function dueSql(table: string, columns: string): (limit: number) => string {
  const part = (condition: string, limit: number) =>
    `SELECT ${columns} FROM (SELECT ${columns} FROM ${table} WHERE ${condition} ORDER BY next_attempt_at LIMIT ${limit})`;
  return (limit) =>
    `${part(PENDING_DUE, limit)} AS pending_rows UNION ALL ${part(SENDING_CLAIMABLE, limit)} AS sending_rows ` +
    `ORDER BY next_attempt_at LIMIT ${limit}`;
}

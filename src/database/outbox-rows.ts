import { Brackets, DataSource, EntityTarget, In, ObjectLiteral, Repository } from 'typeorm';
import { OutboxRowColumns } from './outbox-row-columns';

/** What an outbox calls a row that reached its receiver, and the column that records when. */
export interface OutboxDone {
  status: string;
  /** The property and the column of the time it was done. */
  atProperty: string;
  atColumn: string;
}

const LAST_ERROR_LENGTH = 1_000;

/**
 * The delivery side of an outbox table, for any entity that extends OutboxRowColumns: it writes
 * no rows of its own. Rows are claimed one by one with a conditional UPDATE (a compare-and-set),
 * so that of several workers (in one instance or many) exactly one gets each row. A claim lapses
 * at `claimed_until`, when another worker may take the row over from one that died.
 */
export class OutboxRows<E extends OutboxRowColumns & ObjectLiteral> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly entity: EntityTarget<E>,
    private readonly done: OutboxDone,
  ) {}

  private get rows(): Repository<E> {
    return this.dataSource.getRepository(this.entity);
  }

  /**
   * Ids of rows that `worker` may claim at `now`, the longest due first: pending rows that are
   * due, rows whose claim has lapsed, and rows that `worker` itself still holds (it lost track
   * of them when the database failed under it; it has nothing in flight when it asks).
   */
  async due(worker: string, now: Date, limit: number): Promise<string[]> {
    const rows = await this.rows
      .createQueryBuilder('outbox')
      .select('outbox.id', 'id')
      .where(claimable(worker, now))
      .orderBy('outbox.next_attempt_at', 'ASC')
      .limit(limit)
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /** Claims the row for `worker` until `until` and counts an attempt; the row, or null when another worker has it. */
  async claim(id: string, worker: string, now: Date, until: Date): Promise<E | null> {
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({ status: 'sending', claimedBy: worker, claimedUntil: until, attempts: () => 'attempts + 1' } as never)
      .where('id = :id', { id })
      .andWhere(claimable(worker, now))
      .execute();
    if (result.affected !== 1) return null;
    return this.rows.findOneByOrFail({ id } as never);
  }

  /** Records the delivery; false when `worker` no longer held the row. */
  async markDone(id: string, worker: string, at: Date): Promise<boolean> {
    return this.release(id, worker, { status: this.done.status, [this.done.atProperty]: at });
  }

  /** Puts the row back to be tried again at `at`. */
  async retryLater(id: string, worker: string, at: Date, error: string): Promise<boolean> {
    return this.release(id, worker, { status: 'pending', nextAttemptAt: at, lastError: error.slice(0, LAST_ERROR_LENGTH) });
  }

  /** Gives the row up for good. */
  async markFailed(id: string, worker: string, error: string): Promise<boolean> {
    return this.release(id, worker, { status: 'failed', lastError: error.slice(0, LAST_ERROR_LENGTH) });
  }

  /** Deletes rows done before `before`; they are kept a while for operators. */
  async purgeDone(before: Date): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where(`status = :done AND ${this.done.atColumn} < :before`, { done: this.done.status, before })
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

  private async release(id: string, worker: string, changes: ObjectLiteral): Promise<boolean> {
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({ ...changes, claimedBy: null, claimedUntil: null } as never)
      .where('id = :id AND status = :sending AND claimed_by = :worker', { id, sending: 'sending', worker })
      .execute();
    return result.affected === 1;
  }
}

/** The rows that `worker` may claim at `now` (see `due`). */
function claimable(worker: string, now: Date): Brackets {
  return new Brackets((where) => {
    where
      .where('(status = :pending AND next_attempt_at <= :now)', { pending: 'pending', now })
      .orWhere('(status = :sending AND (claimed_until < :now OR claimed_by = :worker))', { sending: 'sending', worker });
  });
}

/** The delay before retry number `attempts` (1 = after the first failure): doubling from `baseMs`, up to `maxMs`. */
export const backoffMs = (attempts: number, baseMs: number, maxMs: number): number => Math.min(baseMs * 2 ** (attempts - 1), maxMs);

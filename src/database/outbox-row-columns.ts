import { Column } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from './columns';

/**
 * The columns every outbox table has (the invitation e-mail and webhook delivery outboxes), which
 * OutboxRows claims, retries and purges by. An outbox entity extends this class and adds its own
 * columns: each entity keeps its own table with all of them (TypeORM concrete table inheritance).
 */
export abstract class OutboxRowColumns<Status extends string = string> {
  @IdColumn()
  id: string;

  @VarcharColumn(16)
  status: Status;

  /** Delivery attempts started so far. */
  @Column({ type: 'int' })
  attempts: number;

  @TimestampColumn('next_attempt_at')
  nextAttemptAt: Date;

  /** The worker that holds the row while its status is `sending`. */
  @VarcharColumn(100, { name: 'claimed_by', nullable: true })
  claimedBy: string | null;

  /** When the claim lapses: a row still `sending` after it belongs to a worker that died. */
  @TimestampColumn('claimed_until', { nullable: true })
  claimedUntil: Date | null;

  /** Why the last attempt failed. */
  @VarcharColumn(1000, { name: 'last_error', nullable: true })
  lastError: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;
}

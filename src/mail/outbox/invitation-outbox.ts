import { Injectable } from '@nestjs/common';
import { Brackets, DataSource, Repository } from 'typeorm';
import { InvitationEmailOutboxEntity, InvitationEntity } from '../../database/entities';
import { OutboxStatus } from '../../database/entities/invitation-email-outbox.entity';
import { InvitationEmail } from '../invitation-mailer';

/** An outbox row as the worker uses it. */
export interface OutboxMessage {
  id: string;
  /** The invitation id: its token, never to be logged. */
  invitationId: string;
  tenantId: string;
  email: InvitationEmail;
  /** Attempts started so far, the current one included. */
  attempts: number;
}

interface Payload extends Omit<InvitationEmail, 'expiresAt'> {
  tenantId: string;
  expiresAt: string;
}

const LAST_ERROR_LENGTH = 1_000;
const status = (value: OutboxStatus) => value;

/**
 * The outbox row that delivers `email` for `invitation`. Whoever creates the invitation writes
 * this row in the same transaction, so that an invitation never exists without its e-mail.
 */
export function newOutboxRow(
  id: string,
  invitation: Pick<InvitationEntity, 'id' | 'tenantId' | 'createdAt'>,
  email: InvitationEmail,
): InvitationEmailOutboxEntity {
  const payload: Payload = { ...email, tenantId: invitation.tenantId, expiresAt: email.expiresAt.toISOString() };
  return {
    id,
    invitationId: invitation.id,
    payload: JSON.stringify(payload),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: invitation.createdAt,
    claimedBy: null,
    claimedUntil: null,
    lastError: null,
    createdAt: invitation.createdAt,
    sentAt: null,
  };
}

/**
 * Delivery's side of the invitation e-mail outbox: it writes no rows of its own. Rows are claimed
 * one by one with a conditional UPDATE, so that of several workers (in one instance or many)
 * exactly one gets each row. A claim lapses at `claimed_until`, when another worker may take the
 * row over from one that died.
 */
@Injectable()
export class InvitationOutbox {
  constructor(private readonly dataSource: DataSource) {}

  private get rows(): Repository<InvitationEmailOutboxEntity> {
    return this.dataSource.getRepository(InvitationEmailOutboxEntity);
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

  /** Claims the row for `worker` until `until` and counts an attempt; null when another worker has it. */
  async claim(id: string, worker: string, now: Date, until: Date): Promise<OutboxMessage | null> {
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({ status: 'sending', claimedBy: worker, claimedUntil: until, attempts: () => 'attempts + 1' })
      .where('id = :id', { id })
      .andWhere(claimable(worker, now))
      .execute();
    if (result.affected !== 1) return null;
    const row = await this.rows.findOneByOrFail({ id });
    const payload = JSON.parse(row.payload) as Payload;
    const { tenantId, ...email } = payload;
    return {
      id: row.id,
      invitationId: row.invitationId,
      tenantId,
      email: { ...email, expiresAt: new Date(payload.expiresAt) },
      attempts: row.attempts,
    };
  }

  /** Records the delivery; false when `worker` no longer held the row. */
  async markSent(id: string, worker: string, at: Date): Promise<boolean> {
    return this.release(id, worker, { status: 'sent', sentAt: at });
  }

  /** Puts the row back to be tried again at `at`. */
  async retryLater(id: string, worker: string, at: Date, error: string): Promise<boolean> {
    return this.release(id, worker, { status: 'pending', nextAttemptAt: at, lastError: error.slice(0, LAST_ERROR_LENGTH) });
  }

  /** Gives the row up for good. */
  async markFailed(id: string, worker: string, error: string): Promise<boolean> {
    return this.release(id, worker, { status: 'failed', lastError: error.slice(0, LAST_ERROR_LENGTH) });
  }

  /** Deletes rows sent before `before`; they are kept a while for operators. */
  async purgeSent(before: Date): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where('status = :sent AND sent_at < :before', { sent: status('sent'), before })
      .execute();
    return result.affected ?? 0;
  }

  private async release(id: string, worker: string, changes: Partial<InvitationEmailOutboxEntity>): Promise<boolean> {
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({ ...changes, claimedBy: null, claimedUntil: null })
      .where('id = :id AND status = :sending AND claimed_by = :worker', { id, sending: status('sending'), worker })
      .execute();
    return result.affected === 1;
  }
}

/** The rows that `worker` may claim at `now` (see `due`). */
function claimable(worker: string, now: Date): Brackets {
  return new Brackets((where) => {
    where
      .where('(status = :pending AND next_attempt_at <= :now)', { pending: status('pending'), now })
      .orWhere('(status = :sending AND (claimed_until < :now OR claimed_by = :worker))', { sending: status('sending'), worker });
  });
}

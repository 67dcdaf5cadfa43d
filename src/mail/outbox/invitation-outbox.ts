import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvitationEmailOutboxEntity, InvitationEntity } from '../../database/entities';
import { MultiStatementPool } from '../../database/multi-statement-pool';
import { OutboxRows } from '../../database/outbox-rows';
import { PreparedStatements } from '../../database/prepared-statements';
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
 * Delivery's side of the invitation e-mail outbox, over the shared OutboxRows (claimed one by
 * one with a compare-and-set; a claim lapses at `claimed_until`): it writes no rows of its own.
 */
@Injectable()
export class InvitationOutbox {
  private readonly rows: OutboxRows<InvitationEmailOutboxEntity>;

  constructor(dataSource: DataSource, statements: PreparedStatements, pool: MultiStatementPool) {
    this.rows = new OutboxRows(dataSource, statements, pool, InvitationEmailOutboxEntity, { status: 'sent', atColumn: 'sent_at' });
  }

  /** Ids of rows that `worker` may claim at `now`, the longest due first (see OutboxRows.due). */
  async due(worker: string, now: Date, limit: number): Promise<string[]> {
    return this.rows.due(worker, now, limit);
  }

  /** Claims the row for `worker` until `until` and counts an attempt; null when another worker has it. */
  async claim(id: string, worker: string, now: Date, until: Date): Promise<OutboxMessage | null> {
    const row = await this.rows.claim(id, worker, now, until);
    if (!row) return null;
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
    return this.rows.markDone(id, worker, at);
  }

  /** Puts the row back to be tried again at `at`. */
  async retryLater(id: string, worker: string, at: Date, error: string): Promise<boolean> {
    return this.rows.retryLater(id, worker, at, error);
  }

  /** Gives the row up for good. */
  async markFailed(id: string, worker: string, error: string): Promise<boolean> {
    return this.rows.markFailed(id, worker, error);
  }

  /** Deletes rows sent before `before`; they are kept a while for operators. */
  async purgeSent(before: Date): Promise<number> {
    return this.rows.purgeDone(before);
  }
}

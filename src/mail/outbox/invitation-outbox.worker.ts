import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { messageOf } from '../../common/api-error';
import { Clock } from '../../common/clock';
import { PollingLoop } from '../../common/polling-loop';
import { AppConfig } from '../../config/app-config';
import { backoffMs } from '../../database/outbox-rows';
import { Metrics } from '../../metrics/metrics';
import { InvitationMailer } from '../invitation-mailer';
import { InvitationOutbox, OutboxMessage } from './invitation-outbox';

/** Rows claimed per round; a full round is followed at once by another. */
export const OUTBOX_BATCH_SIZE = 10;
/** How long a claim holds: well past the longest send (SEND_TIMEOUT_MS), so a live worker keeps its row. */
export const OUTBOX_CLAIM_MS = 120_000;
/** Sent rows are kept this long for operators, then deleted. */
export const OUTBOX_KEEP_SENT_MS = 7 * 24 * 60 * 60 * 1_000;
const PURGE_EVERY_MS = 60 * 60 * 1_000;
/** How long shutdown waits for the round in progress (its sends are bounded by the SMTP timeouts). */
export const OUTBOX_SHUTDOWN_WAIT_MS = 10_000;

/**
 * Delivers the invitation e-mail outbox through InvitationMailer, in the background of every
 * instance: every OUTBOX_POLL_INTERVAL_MS, and at once when this instance has just created an
 * invitation (`kick`). A failed send is retried with exponential backoff, up to
 * OUTBOX_MAX_ATTEMPTS, then the row is marked failed. Log lines never carry the invitation
 * token: it is in the link, and whoever holds it can accept the invitation.
 *
 * Delivery is exactly once while instances live, and at least once when one dies between
 * handing a message to the SMTP server and recording it: after the claim lapses, another
 * instance sends it again.
 */
@Injectable()
export class InvitationOutboxWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Unique per process and per app instance: claims are made in this name. */
  readonly workerId = `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  private readonly logger = new Logger('InvitationOutbox');
  private readonly loop: PollingLoop;
  private storeDown = false;
  private lastPurge = 0;
  /** Sent, but the database failed before it was recorded: recorded first thing next round. */
  private readonly sentUnrecorded = new Map<string, Date>();
  /** Rows this worker is sending now: its own claims on any others are left over from a failure. */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly outbox: InvitationOutbox,
    private readonly mailer: InvitationMailer,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.loop = new PollingLoop(() => this.deliverDue(), config.outbox.pollIntervalMs);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /**
   * Stops polling and waits, for a bounded time, for the round in progress. Runs after the HTTP
   * server has closed and before the database is (TypeORM's global module shuts down last).
   * A row left claimed is taken over by another instance once its claim lapses.
   */
  async onApplicationShutdown(): Promise<void> {
    if (!(await this.loop.stop(OUTBOX_SHUTDOWN_WAIT_MS))) {
      this.logger.warn('Shutting down with invitation e-mails still being sent: another instance will retry them');
    }
  }

  /** Looks for work now rather than at the next poll: an invitation was just created. */
  kick(): void {
    this.loop.kick();
  }

  /**
   * One round: claims what is due and sends it. True when it found a full batch, so that more
   * may be waiting. The timer calls it; unit tests call it on a worker that was never started.
   */
  async deliverDue(): Promise<boolean> {
    try {
      await this.recordSent();
      await this.purge();
      const ids = await this.outbox.due(this.workerId, this.clock.now(), OUTBOX_BATCH_SIZE);
      const results = await Promise.all(ids.map((id) => this.deliver(id)));
      if (results.every(Boolean)) this.storeBack();
      return ids.length === OUTBOX_BATCH_SIZE;
    } catch (error) {
      this.storeFailed(error);
      return false;
    }
  }

  /** Claims and sends one row; false when the database failed on the way (already logged). */
  private async deliver(id: string): Promise<boolean> {
    if (this.inFlight.has(id) || this.sentUnrecorded.has(id)) return true;
    this.inFlight.add(id);
    try {
      return await this.claimAndSend(id);
    } finally {
      this.inFlight.delete(id);
    }
  }

  private async claimAndSend(id: string): Promise<boolean> {
    let message: OutboxMessage | null;
    try {
      const now = this.clock.now();
      message = await this.outbox.claim(id, this.workerId, now, new Date(now.getTime() + OUTBOX_CLAIM_MS));
    } catch (error) {
      this.storeFailed(error);
      return false;
    }
    if (!message) return true; // another worker has it
    const { email } = message;
    const now = this.clock.now();
    if (email.expiresAt.getTime() < now.getTime()) {
      return this.giveUp(message, 'the invitation expired before the e-mail could be delivered');
    }
    try {
      await this.mailer.send(email);
    } catch (error) {
      // Counted per failed attempt, so that a mail server outage shows at once, not after the retries.
      this.metrics.invitationEmail('failed');
      return this.sendFailed(message, masked(messageOf(error), message.invitationId));
    }
    this.metrics.invitationEmail('sent');
    const sentAt = this.clock.now();
    try {
      if (!(await this.outbox.markSent(message.id, this.workerId, sentAt))) this.claimLost(message);
      return true;
    } catch (error) {
      this.sentUnrecorded.set(message.id, sentAt);
      this.storeFailed(error);
      return false;
    }
  }

  private async sendFailed(message: OutboxMessage, reason: string): Promise<boolean> {
    const { maxAttempts, retryBaseMs, retryMaxMs } = this.config.outbox;
    if (message.attempts >= maxAttempts) return this.giveUp(message, reason);
    const delayMs = backoffMs(message.attempts, retryBaseMs, retryMaxMs);
    this.logger.warn(
      `${subject(message)} failed: ${reason} (attempt ${message.attempts} of ${maxAttempts}; next in ${seconds(delayMs)})`,
    );
    try {
      const at = new Date(this.clock.now().getTime() + delayMs);
      if (!(await this.outbox.retryLater(message.id, this.workerId, at, reason))) this.claimLost(message);
      return true;
    } catch (error) {
      this.storeFailed(error);
      return false;
    }
  }

  private async giveUp(message: OutboxMessage, reason: string): Promise<boolean> {
    this.logger.error(
      `${subject(message)} failed: ${reason}; given up after ${message.attempts} attempt(s), outbox row ${message.id} is marked failed`,
    );
    try {
      if (!(await this.outbox.markFailed(message.id, this.workerId, reason))) this.claimLost(message);
      return true;
    } catch (error) {
      this.storeFailed(error);
      return false;
    }
  }

  private async recordSent(): Promise<void> {
    for (const [id, sentAt] of this.sentUnrecorded) {
      await this.outbox.markSent(id, this.workerId, sentAt);
      this.sentUnrecorded.delete(id);
    }
  }

  private async purge(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await this.outbox.purgeSent(new Date(now - OUTBOX_KEEP_SENT_MS));
  }

  private claimLost(message: OutboxMessage): void {
    this.logger.warn(`${subject(message)}: the claim on outbox row ${message.id} lapsed before it was released`);
  }

  /** Logs once per outage, not once per poll. */
  private storeFailed(error: unknown): void {
    if (this.storeDown) return;
    this.storeDown = true;
    this.logger.error(`Invitation e-mail outbox unavailable (${messageOf(error)}): e-mails wait until the database is back`);
  }

  private storeBack(): void {
    if (!this.storeDown) return;
    this.storeDown = false;
    this.logger.log('Invitation e-mail outbox available again: delivering');
  }
}

const subject = (message: OutboxMessage) => `Invitation e-mail to ${message.email.to} for tenant ${message.tenantId}`;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

/** The token masked wherever it appears, as in an SMTP error that quotes the message. */
const masked = (text: string, token: string) => text.replaceAll(token, '<token>');

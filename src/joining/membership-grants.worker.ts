import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { PollingLoop } from '../common/polling-loop';
import { AppConfig } from '../config/app-config';
import { MembershipGrantEntity } from '../database/entities';
import { backoffMs } from '../outbox/outbox-delivery-loop';
import { DueGrant, MembershipGrantsRepository } from './membership-grants.repository';

/** What the grants need of the user pool: CognitoIdentityStore has it. Provided in cognito mode only. */
export abstract class PoolMemberships {
  abstract grantMembership(id: string, tenantId: string, role: string): Promise<void>;
}

/** Grants claimed per round; a full round is followed at once by another. */
export const GRANT_BATCH_SIZE = 10;
/** How long a claim holds: past the longest pool write (three calls, each with the SDK's timeouts and retries). */
export const GRANT_CLAIM_MS = 120_000;
const SHUTDOWN_WAIT_MS = 10_000;

/**
 * Writes the memberships that joins grant into the user pool (cognito mode). The join writes its
 * grant in its own transaction, claimed by this instance, and hands it here right after the
 * commit; when the pool refuses or cannot be reached, the grant is given back and retried on the
 * e-mail outbox's schedule (OUTBOX_POLL_INTERVAL_MS, doubling from OUTBOX_RETRY_BASE_MS up to
 * OUTBOX_RETRY_MAX_MS), by any instance, for as long as it takes: an accepted invitation never
 * stays without its membership. Only a user that the pool no longer has ends a grant unwritten.
 */
@Injectable()
export class MembershipGrantsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Unique per process and per app instance: claims are made in this name. */
  readonly workerId = `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  private readonly logger = new Logger('MembershipGrants');
  private readonly loop: PollingLoop;
  private storeDown = false;

  constructor(
    private readonly grants: MembershipGrantsRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    // In local mode the provider is null: no pool to write to.
    @Inject(PoolMemberships) private readonly pool: PoolMemberships | null,
  ) {
    this.loop = new PollingLoop(() => this.retryDue(), config.outbox.pollIntervalMs);
  }

  onApplicationBootstrap(): void {
    if (this.pool) this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    if (!(await this.loop.stop(SHUTDOWN_WAIT_MS))) {
      this.logger.warn('Shutting down with memberships still being written to the user pool: another instance will retry them');
    }
  }

  /** The grant that a join writes in its transaction: claimed by this instance, which writes it to the pool after the commit. */
  claimedGrant(userId: string, tenantId: string, role: string, now: Date): MembershipGrantEntity {
    return {
      userId,
      tenantId,
      role,
      attempts: 1,
      nextAttemptAt: now,
      claimedBy: this.workerId,
      claimedUntil: new Date(now.getTime() + GRANT_CLAIM_MS),
      lastError: null,
      createdAt: now,
    };
  }

  /**
   * Writes a grant that this instance holds to the pool: true when the pool has it, false when a
   * retry will write it. Never throws: when the database fails too, the claim lapses and the
   * grant is retried then (writing it again changes nothing).
   */
  async write(grant: DueGrant): Promise<boolean> {
    let written = false;
    try {
      await this.pool!.grantMembership(grant.userId, grant.tenantId, grant.role);
      written = true;
      await this.grants.remove(grant.userId, this.workerId);
    } catch (error) {
      if (!written) await this.failed(grant, error);
      else this.logger.warn(`${subjectOf(grant)} is in the user pool, but its grant could not be deleted: ${messageOf(error)}`);
    }
    return written;
  }

  /** One round: claims the grants that are due and writes them. True when it found a full batch. */
  async retryDue(): Promise<boolean> {
    try {
      const now = this.clock.now();
      const due = await this.grants.due(now, GRANT_BATCH_SIZE);
      for (const grant of due) {
        if (await this.grants.claim(grant, this.workerId, now, new Date(now.getTime() + GRANT_CLAIM_MS))) {
          await this.write({ ...grant, attempts: grant.attempts + 1 });
        }
      }
      this.storeBack();
      return due.length === GRANT_BATCH_SIZE;
    } catch (error) {
      this.storeFailed(error);
      return false;
    }
  }

  private async failed(grant: DueGrant, error: unknown): Promise<void> {
    try {
      if ((error as Error).name === 'UserNotFoundException') {
        this.logger.error(`${subjectOf(grant)} was not written: the user pool no longer has the user; the grant is dropped`);
        await this.grants.remove(grant.userId, this.workerId);
        return;
      }
      const { retryBaseMs, retryMaxMs } = this.config.outbox;
      const delayMs = backoffMs(grant.attempts, retryBaseMs, retryMaxMs);
      this.logger.warn(`${subjectOf(grant)} could not be written to the user pool (attempt ${grant.attempts}; next in ${delayMs} ms): ${messageOf(error)}`);
      await this.grants.retryLater(grant.userId, this.workerId, new Date(this.clock.now().getTime() + delayMs), messageOf(error));
    } catch (storeError) {
      this.logger.warn(`${subjectOf(grant)}: the grant could not be given back (${messageOf(storeError)}); it is retried when its claim lapses`);
    }
  }

  /** Logs once per outage, not once per poll. */
  private storeFailed(error: unknown): void {
    if (this.storeDown) return;
    this.storeDown = true;
    this.logger.error(`Membership grants unavailable (${messageOf(error)}): they wait until the database is back`);
  }

  private storeBack(): void {
    if (!this.storeDown) return;
    this.storeDown = false;
    this.logger.log('Membership grants available again: writing');
  }
}

const subjectOf = (grant: DueGrant) => `The membership of user ${grant.userId} in tenant ${grant.tenantId} as ${grant.role}`;

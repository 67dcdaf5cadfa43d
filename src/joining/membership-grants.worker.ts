import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { MembershipGrantEntity } from '../database/entities';
import { MultiStatementPool } from '../database/multi-statement-pool';
import { OutboxRows } from '../database/outbox-rows';
import { PreparedStatements } from '../database/prepared-statements';
import { AccountNotFoundError, PoolMemberships } from '../identity/identity-store';
import { AttemptResult, OutboxDeliveryLoop } from '../outbox/outbox-delivery-loop';

/** Grants claimed per round; a full round is followed at once by another. */
export const GRANT_BATCH_SIZE = 10;
/** How long a claim holds: past the longest pool write (three calls, each with the SDK's timeouts and retries). */
export const GRANT_CLAIM_MS = 120_000;
const SHUTDOWN_WAIT_MS = 10_000;

/**
 * Writes the memberships that joins grant into the user pool (cognito mode), as the outbox of
 * `membership_grants`. The join writes its grant in its own transaction, claimed by this instance,
 * and writes it to the pool right after the commit (`joinAndWrite`); when the pool refuses or
 * cannot be reached, the grant is retried on the e-mail outbox's schedule (OUTBOX_POLL_INTERVAL_MS,
 * doubling from OUTBOX_RETRY_BASE_MS up to OUTBOX_RETRY_MAX_MS), by any instance, for as long as it
 * takes (OUTBOX_MAX_ATTEMPTS does not apply): an accepted invitation never stays without its
 * membership. A grant the pool has is deleted at once, so that the user may be granted again later.
 * Only a user that the pool no longer has ends a grant unwritten: it is kept, marked failed.
 */
@Injectable()
export class MembershipGrantsWorker extends OutboxDeliveryLoop<MembershipGrantEntity> {
  constructor(
    dataSource: DataSource,
    statements: PreparedStatements,
    pool: MultiStatementPool,
    clock: Clock,
    config: AppConfig,
    private readonly ids: IdGenerator,
    // Null for a store whose users rows the join's transaction writes: no pool to write to.
    @Inject(PoolMemberships) private readonly poolMemberships: PoolMemberships | null,
  ) {
    super({
      rows: new OutboxRows(dataSource, statements, pool, MembershipGrantEntity, 'deleted'),
      send: (grant) => writeGrant(grant, poolMemberships!),
      subject: (grant) => `The membership of user ${grant.userId} in tenant ${grant.tenantId} as ${grant.role}`,
      schedule: { ...config.outbox, maxAttempts: Number.POSITIVE_INFINITY },
      batchSize: GRANT_BATCH_SIZE,
      claimMs: GRANT_CLAIM_MS,
      // Unused: a grant the pool has is deleted at once.
      keepDoneMs: 0,
      shutdown: {
        waitMs: SHUTDOWN_WAIT_MS,
        warning:
          'Shutting down with memberships still being written to the user pool: another instance will retry them',
      },
      names: { context: 'MembershipGrants', outbox: 'Membership grants', waiting: 'they', row: 'grant' },
      clock,
    });
  }

  /** Runs only for a user pool: the local store has no pool to write to. */
  override onApplicationBootstrap(): void {
    if (this.poolMemberships) super.onApplicationBootstrap();
  }

  /** The grant that a join writes in its transaction: claimed by this instance, which writes it to the pool after the commit. */
  claimedGrant(userId: string, tenantId: string, role: string, now: Date): MembershipGrantEntity {
    return {
      id: this.ids.uuid(),
      userId,
      tenantId,
      role,
      status: 'sending',
      attempts: 1,
      nextAttemptAt: now,
      claimedBy: this.workerId,
      claimedUntil: new Date(now.getTime() + GRANT_CLAIM_MS),
      lastError: null,
      createdAt: now,
    };
  }

  /**
   * Commits the join (`join`: its transaction, which inserts `grant`; false when it wrote nothing),
   * then writes the grant to the pool. Null when nothing was committed; else true when the pool has
   * the grant, false when a retry will write it. Rounds never write the grant meanwhile.
   */
  joinAndWrite(grant: MembershipGrantEntity, join: () => Promise<boolean>): Promise<boolean | null> {
    return this.writeAndSend(grant, join);
  }
}

/** One attempt: writing it again changes nothing, so a grant written twice (its instance died) is harmless. */
async function writeGrant(grant: MembershipGrantEntity, pool: PoolMemberships): Promise<AttemptResult> {
  try {
    await pool.grantMembership(grant.userId, grant.tenantId, grant.role);
    return { outcome: 'delivered' };
  } catch (error) {
    if (error instanceof AccountNotFoundError)
      return { outcome: 'failed', reason: `the user pool no longer has the user: ${messageOf(error)}` };
    return { outcome: 'retry', reason: messageOf(error) };
  }
}

import { TestClock } from '../../test/support/test-clock';
import { parseConfig } from '../config/app-config';
import { DueGrant, MembershipGrantsRepository } from './membership-grants.repository';
import { GRANT_CLAIM_MS, MembershipGrantsWorker, PoolMemberships } from './membership-grants.worker';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const GRANT: DueGrant = { userId: 'u-1', tenantId: 't-1', role: 'admin', attempts: 1 };

/** The grants table in memory, with the real one's claims: a grant is held by one worker at a time. */
class FakeGrants implements Pick<MembershipGrantsRepository, 'due' | 'claim' | 'retryLater' | 'remove'> {
  readonly rows = new Map<string, DueGrant & { claimedBy: string | null; nextAttemptAt: Date; lastError?: string }>();
  failing = false;

  async due(now: Date) {
    this.fail();
    return [...this.rows.values()].filter((row) => row.claimedBy === null && row.nextAttemptAt <= now).map(({ userId, tenantId, role, attempts }) => ({ userId, tenantId, role, attempts }));
  }
  async claim(grant: DueGrant, worker: string) {
    const row = this.rows.get(grant.userId);
    if (!row || row.claimedBy !== null) return false;
    Object.assign(row, { claimedBy: worker, attempts: row.attempts + 1 });
    return true;
  }
  async retryLater(userId: string, worker: string, at: Date, error: string) {
    this.fail();
    const row = this.rows.get(userId);
    if (row?.claimedBy !== worker) return false;
    Object.assign(row, { claimedBy: null, nextAttemptAt: at, lastError: error });
    return true;
  }
  async remove(userId: string, worker: string) {
    this.fail();
    return this.rows.get(userId)?.claimedBy === worker && this.rows.delete(userId);
  }
  private fail() {
    if (this.failing) throw new Error('database down');
  }
}

class FakePool implements PoolMemberships {
  readonly written: [string, string, string][] = [];
  failure?: Error;
  async grantMembership(id: string, tenantId: string, role: string) {
    if (this.failure) throw this.failure;
    this.written.push([id, tenantId, role]);
  }
}

describe(MembershipGrantsWorker.name, () => {
  let grants: FakeGrants;
  let pool: FakePool;
  let clock: TestClock;
  let worker: MembershipGrantsWorker;
  const config = parseConfig({ OUTBOX_RETRY_BASE_MS: '100', OUTBOX_RETRY_MAX_MS: '400' });

  beforeEach(() => {
    grants = new FakeGrants();
    pool = new FakePool();
    clock = new TestClock(NOW);
    worker = new MembershipGrantsWorker(grants as unknown as MembershipGrantsRepository, clock, config, pool);
  });
  const held = () => grants.rows.set(GRANT.userId, { ...GRANT, claimedBy: worker.workerId, nextAttemptAt: NOW });

  it('the grant a join writes is claimed by this worker, for a while, with its first attempt counted', () => {
    expect(worker.claimedGrant('u-1', 't-1', 'owner', NOW)).toEqual({
      userId: 'u-1',
      tenantId: 't-1',
      role: 'owner',
      attempts: 1,
      nextAttemptAt: NOW,
      claimedBy: worker.workerId,
      claimedUntil: new Date(NOW.getTime() + GRANT_CLAIM_MS),
      lastError: null,
      createdAt: NOW,
    });
  });

  it('writes the grant to the pool, then deletes it', async () => {
    held();
    expect(await worker.write(GRANT)).toBe(true);
    expect(pool.written).toEqual([['u-1', 't-1', 'admin']]);
    expect(grants.rows.size).toBe(0);
  });

  it('a pool that fails: the grant is given back for later, by the outbox schedule, and the answer is false', async () => {
    held();
    pool.failure = new Error('connect ECONNREFUSED');
    expect(await worker.write(GRANT)).toBe(false);
    expect(grants.rows.get('u-1')).toMatchObject({ claimedBy: null, nextAttemptAt: new Date(NOW.getTime() + 100), lastError: 'connect ECONNREFUSED' });
  });

  it('is retried, backing off up to the cap, until the pool takes it: never given up', async () => {
    held();
    pool.failure = new Error('down');
    await worker.write(GRANT);
    const delays: number[] = [];
    for (let round = 0; round < 4; round++) {
      clock.advance(1_000);
      const before = clock.now().getTime();
      await worker.retryDue();
      delays.push(grants.rows.get('u-1')!.nextAttemptAt.getTime() - before);
    }
    expect(delays).toEqual([200, 400, 400, 400]);
    pool.failure = undefined;
    clock.advance(1_000);
    await worker.retryDue();
    expect(pool.written).toEqual([['u-1', 't-1', 'admin']]);
    expect(grants.rows.size).toBe(0);
  });

  it('a user that the pool no longer has drops the grant', async () => {
    held();
    pool.failure = Object.assign(new Error('User does not exist.'), { name: 'UserNotFoundException' });
    expect(await worker.write(GRANT)).toBe(false);
    expect(grants.rows.size).toBe(0);
  });

  it('never throws: the pool has it but the database fails (true), or both fail (false); the claim lapses and a retry writes it again', async () => {
    held();
    grants.failing = true;
    expect(await worker.write(GRANT)).toBe(true);
    pool.failure = new Error('down');
    expect(await worker.write(GRANT)).toBe(false);
    expect(grants.rows.get('u-1')?.claimedBy).toBe(worker.workerId);
  });

  it('a round on a database that fails is logged, not thrown', async () => {
    grants.failing = true;
    expect(await worker.retryDue()).toBe(false);
  });
});

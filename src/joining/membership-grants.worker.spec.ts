import { Logger } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { memoryDataSource } from '../../test/support/memory-data-source';
import { TestClock } from '../../test/support/test-clock';
import { IdGenerator } from '../common/id-generator';
import { parseConfig } from '../config/app-config';
import { MembershipGrantEntity } from '../database/entities';
import { MultiStatementPool } from '../database/multi-statement-pool';
import { PreparedStatements } from '../database/prepared-statements';
import { AccountNotFoundError, PoolMemberships } from '../identity/identity-store';
import { MembershipGrantsRepository } from './membership-grants.repository';
import { GRANT_BATCH_SIZE, GRANT_CLAIM_MS, MembershipGrantsWorker } from './membership-grants.worker';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const GRANT_ID = '00000000-0000-4000-8000-000000000001';

class FakePool implements PoolMemberships {
  readonly written: [string, string, string][] = [];
  failure?: Error;
  /** Runs as a write starts, before it ends. */
  onWrite?: () => Promise<unknown>;
  async grantMembership(id: string, tenantId: string, role: string) {
    await this.onWrite?.();
    if (this.failure) throw this.failure;
    this.written.push([id, tenantId, role]);
  }
}

describe(MembershipGrantsWorker.name, () => {
  let dataSource: DataSource;
  let rows: Repository<MembershipGrantEntity>;
  let statements: PreparedStatements;
  let pool: FakePool;
  let clock: TestClock;
  let worker: MembershipGrantsWorker;
  const config = parseConfig({ OUTBOX_RETRY_BASE_MS: '100', OUTBOX_RETRY_MAX_MS: '400', OUTBOX_MAX_ATTEMPTS: '2' });

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    rows = dataSource.getRepository(MembershipGrantEntity);
  });
  afterAll(() => dataSource.destroy());

  beforeEach(async () => {
    await rows.clear();
    statements = new PreparedStatements(dataSource);
    pool = new FakePool();
    clock = new TestClock(NOW);
    let made = 0;
    const ids = { uuid: () => `00000000-0000-4000-8000-${String(++made).padStart(12, '0')}` } as IdGenerator;
    worker = new MembershipGrantsWorker(
      dataSource,
      statements,
      new MultiStatementPool(dataSource),
      clock,
      config,
      ids,
      pool,
    );
    for (const level of ['warn', 'error', 'log'] as const)
      jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  /** A join of user u-1 as admin: its transaction inserts the grant claimed by this worker, then the grant is written to the pool. */
  const join = () => {
    const grant = worker.claimedGrant('u-1', 't-1', 'admin', clock.now());
    return worker.joinAndWrite(grant, async () => {
      await rows.insert(grant);
      return true;
    });
  };
  const only = () => rows.findOneByOrFail({ userId: 'u-1' });

  it('the grant a join writes is claimed by this worker, for a while, with its first attempt counted', () => {
    expect(worker.claimedGrant('u-1', 't-1', 'owner', NOW)).toEqual({
      id: GRANT_ID,
      userId: 'u-1',
      tenantId: 't-1',
      role: 'owner',
      status: 'sending',
      attempts: 1,
      nextAttemptAt: NOW,
      claimedBy: worker.workerId,
      claimedUntil: new Date(NOW.getTime() + GRANT_CLAIM_MS),
      lastError: null,
      createdAt: NOW,
    });
  });

  it('writes the grant to the pool, then deletes it', async () => {
    expect(await join()).toBe(true);
    expect(pool.written).toEqual([['u-1', 't-1', 'admin']]);
    expect(await rows.count()).toBe(0);
  });

  it('a join that writes nothing sends nothing', async () => {
    const grant = worker.claimedGrant('u-1', 't-1', 'admin', NOW);
    expect(await worker.joinAndWrite(grant, async () => false)).toBeNull();
    expect(pool.written).toEqual([]);
  });

  it('a round while the join writes its grant leaves the grant alone: it is written once', async () => {
    pool.onWrite = () => worker.deliverDue();
    expect(await join()).toBe(true);
    expect(pool.written).toEqual([['u-1', 't-1', 'admin']]);
  });

  it('a round that finds only the grants this worker is writing says no more work waits: the loop does not spin on them', async () => {
    let letWritesEnd!: () => void;
    const writesHeld = new Promise<void>((resolve) => (letWritesEnd = resolve));
    pool.onWrite = () => writesHeld;
    const joins = Array.from({ length: GRANT_BATCH_SIZE }, (_, index) => {
      const grant = worker.claimedGrant(`u-${index}`, 't-1', 'member', clock.now());
      return worker.joinAndWrite(grant, async () => {
        await rows.insert(grant);
        return true;
      });
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await rows.countBy({ status: 'sending' })).toBe(GRANT_BATCH_SIZE);
    expect(await worker.deliverDue()).toBe(false);
    letWritesEnd();
    expect(await Promise.all(joins)).toEqual(Array(GRANT_BATCH_SIZE).fill(true));
    expect(pool.written).toHaveLength(GRANT_BATCH_SIZE);
  });

  it('a pool that fails: the grant is given back for later, by the outbox schedule, and the answer is false', async () => {
    pool.failure = new Error('connect ECONNREFUSED');
    expect(await join()).toBe(false);
    expect(await only()).toMatchObject({
      status: 'pending',
      claimedBy: null,
      nextAttemptAt: new Date(NOW.getTime() + 100),
      lastError: 'connect ECONNREFUSED',
    });
    expect(await new MembershipGrantsRepository(statements).pendingFor('u-1')).toEqual({
      tenantId: 't-1',
      role: 'admin',
    });
  });

  it('is retried, backing off up to the cap, until the pool takes it: never given up (OUTBOX_MAX_ATTEMPTS does not apply)', async () => {
    pool.failure = new Error('down');
    await join();
    const delays: number[] = [];
    for (let round = 0; round < 4; round++) {
      clock.advance(1_000);
      const before = clock.now().getTime();
      await worker.deliverDue();
      delays.push((await only()).nextAttemptAt.getTime() - before);
    }
    expect(delays).toEqual([200, 400, 400, 400]);
    expect(await only()).toMatchObject({ status: 'pending', attempts: 5 });
    pool.failure = undefined;
    clock.advance(1_000);
    await worker.deliverDue();
    expect(pool.written).toEqual([['u-1', 't-1', 'admin']]);
    expect(await rows.count()).toBe(0);
  });

  it('a user that the pool no longer has ends the grant: marked failed, no longer on its way', async () => {
    pool.failure = new AccountNotFoundError('User does not exist.');
    expect(await join()).toBe(false);
    expect(await only()).toMatchObject({ status: 'failed', claimedBy: null });
    expect(await new MembershipGrantsRepository(statements).pendingFor('u-1')).toBeNull();
  });

  it('a user has at most one grant on its way: a second insert fails', async () => {
    await rows.insert(worker.claimedGrant('u-1', 't-1', 'admin', NOW));
    await expect(rows.insert({ ...worker.claimedGrant('u-1', 't-2', 'member', NOW), id: 'another' })).rejects.toThrow(
      /UNIQUE/,
    );
  });

  it('never throws: pool written, database failing (true), or both failing (false); the claim stays for a round to write', async () => {
    const insert = async (grant: MembershipGrantEntity) => {
      await rows.insert(grant);
      jest.spyOn(statements, 'changes').mockRejectedValue(new Error('database down'));
      return true;
    };
    const first = worker.claimedGrant('u-1', 't-1', 'admin', NOW);
    expect(await worker.joinAndWrite(first, () => insert(first))).toBe(true);
    jest.restoreAllMocks();
    await rows.clear();
    pool.failure = new Error('down');
    const grant = worker.claimedGrant('u-1', 't-1', 'admin', NOW);
    expect(await worker.joinAndWrite(grant, () => insert(grant))).toBe(false);
    expect((await only()).claimedBy).toBe(worker.workerId);
    jest.restoreAllMocks();
    pool.failure = undefined;
    await worker.deliverDue();
    expect(pool.written).toEqual([
      ['u-1', 't-1', 'admin'],
      ['u-1', 't-1', 'admin'],
    ]);
    expect(await rows.count()).toBe(0);
  });

  it('a round on a database that fails is logged, not thrown', async () => {
    jest.spyOn(statements, 'rows').mockRejectedValue(new Error('database down'));
    expect(await worker.deliverDue()).toBe(false);
  });
});

import { setTimeout as delay } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../migrations';
import { Clock } from '../src/common/clock';
import { IdGenerator } from '../src/common/id-generator';
import { parseConfig } from '../src/config/app-config';
import { AtomicWriter } from '../src/database/atomic-writer';
import { ClusteredDataSource } from '../src/database/clustered-data-source';
import { dataSourceOptions } from '../src/database/data-source-options';
import { LeaseEntity, TenantEntity } from '../src/database/entities';
import { Leases, LeaseTerms, LeaseUnavailableError } from '../src/database/leases';
import { MultiStatementPool } from '../src/database/multi-statement-pool';
import { PreparedStatements } from '../src/database/prepared-statements';
import { TestClock } from './support/test-clock';
import { createTestDatabase, e2eDatabase, TestDatabase } from './support/test-database';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const TERMS: LeaseTerms = { ttlMs: 60_000, waitMs: 2_000, retryMs: 10 };

/** Two processes' data sources on one database (on SQLite, two connections to one file). */
async function twoDataSources(url: string): Promise<[DataSource, DataSource]> {
  const options = dataSourceOptions(parseConfig({ NODE_ENV: 'test', DATABASE_URL: url, DB_MIGRATIONS_RUN: 'false' }));
  const sources = [new ClusteredDataSource(options), new ClusteredDataSource(options)] as const;
  await Promise.all(sources.map((source) => source.initialize()));
  return [sources[0], sources[1]];
}

/**
 * Leases (src/database/leases.ts) on the suite's database, SQLite and MariaDB, between two data
 * sources as two processes would hold them: one holder at a time, renewal, release, a dead holder's
 * lease running out, and the row written inside a transaction. Then the migration lock, which
 * holds one.
 */
describe('Leases', () => {
  let database: TestDatabase;
  let sources: [DataSource, DataSource];
  const clock = new TestClock(NOW);
  /** The Leases of each "process", on the one clock that the tests move. */
  let leases: [Leases, Leases];
  let sequence = 0;
  const fresh = () => `test/${++sequence}`;
  const rowOf = async (name: string) => {
    const row = await sources[0].getRepository(LeaseEntity).findOneBy({ name });
    return row && { holder: row.holder, heldUntil: Number(row.heldUntil), version: Number(row.version) };
  };
  const leasesOn = (source: DataSource, on: Clock = clock) =>
    new Leases(new PreparedStatements(source), on, new IdGenerator());

  beforeAll(async () => {
    database = await createTestDatabase();
    sources = await twoDataSources(database.url);
    await sources[0].runMigrations({ transaction: 'each' });
    leases = [leasesOn(sources[0]), leasesOn(sources[1])];
  });
  afterAll(async () => {
    await Promise.all(sources.map((source) => source.destroy()));
    await database.drop();
  });

  describe('acquire, renew, release', () => {
    it('the first holder takes a lease no one holds (its row made on first use); another is refused while it holds', async () => {
      const name = fresh();
      const first = await leases[0].tryAcquire(name, 1_000);
      expect(first).toEqual({ name, holder: expect.any(String), ttlMs: 1_000 });
      expect(await rowOf(name)).toEqual({ holder: first!.holder, heldUntil: NOW.getTime() + 1_000, version: 0 });
      expect(await leases[1].tryAcquire(name, 1_000)).toBeUndefined();
      expect(await leases[0].tryAcquire(name, 1_000)).toBeUndefined();
      expect((await rowOf(name))?.holder).toBe(first!.holder);
    });

    it('of parallel first attempts through both data sources, exactly one takes it', async () => {
      const name = fresh();
      const attempts = await Promise.all(
        Array.from({ length: 10 }, (_, i) => leases[i % 2].tryAcquire(name, TERMS.ttlMs)),
      );
      const taken = attempts.filter((lease) => lease !== undefined);
      expect(taken).toHaveLength(1);
      expect((await rowOf(name))?.holder).toBe(taken[0]!.holder);
    });

    it('release: the next holder takes it at once; a release by one who no longer holds it changes nothing', async () => {
      const name = fresh();
      const first = (await leases[0].tryAcquire(name, 1_000))!;
      await leases[0].release(first);
      expect(await rowOf(name)).toEqual({ holder: null, heldUntil: 0, version: 0 });
      const second = (await leases[1].tryAcquire(name, 1_000))!;
      expect(second.holder).not.toBe(first.holder);
      await leases[0].release(first);
      expect((await rowOf(name))?.holder).toBe(second.holder);
    });

    it('renew: holds it ttlMs from now; false, and nothing changed, once it ran out and another took it', async () => {
      const name = fresh();
      const first = (await leases[0].tryAcquire(name, 1_000))!;
      clock.advance(900);
      expect(await leases[0].renew(first)).toBe(true);
      expect((await rowOf(name))?.heldUntil).toBe(clock.now().getTime() + 1_000);
      clock.advance(900);
      expect(await leases[1].tryAcquire(name, 1_000)).toBeUndefined();
      clock.advance(200);
      const second = (await leases[1].tryAcquire(name, 1_000))!;
      expect(second).toBeDefined();
      expect(await leases[0].renew(first)).toBe(false);
      expect(await rowOf(name)).toEqual({
        holder: second.holder,
        heldUntil: clock.now().getTime() + 1_000,
        version: 0,
      });
    });

    it('a dead holder (never released, never renewed): its lease runs out after ttlMs and another takes it', async () => {
      const name = fresh();
      await leases[0].tryAcquire(name, 5_000);
      clock.advance(5_000);
      expect(await leases[1].tryAcquire(name, 5_000)).toBeUndefined();
      clock.advance(1);
      expect(await leases[1].tryAcquire(name, 5_000)).toBeDefined();
    });

    it('acquire waits for the holder to release it; past waitMs it gives up with LeaseUnavailableError', async () => {
      const name = fresh();
      const first = (await leases[0].tryAcquire(name, TERMS.ttlMs))!;
      setTimeout(() => void leases[0].release(first), 200);
      const second = await leases[1].acquire(name, TERMS);
      expect((await rowOf(name))?.holder).toBe(second.holder);
      const started = performance.now();
      await expect(leases[0].acquire(name, { ...TERMS, waitMs: 300 })).rejects.toEqual(
        new LeaseUnavailableError(name, 300),
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    });

    it('a name longer than the key holds (191 characters) is refused before any SQL', async () => {
      await expect(leases[0].tryAcquire('x'.repeat(192), 1_000)).rejects.toThrow('1 to 191 characters');
      await expect(leases[0].ensure('')).rejects.toThrow('1 to 191 characters');
    });
  });

  describe('holding', () => {
    it('runs the work of parallel holders through both data sources one at a time, and releases after each', async () => {
      const name = fresh();
      let running = 0;
      let most = 0;
      const work = async (i: number) => {
        most = Math.max(most, ++running);
        await delay(5);
        running--;
        return i;
      };
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => leases[i % 2].holding(name, TERMS, () => work(i))),
      );
      expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(most).toBe(1);
      expect((await rowOf(name))?.holder).toBeNull();
    });

    it('releases when the work fails, and gives its error', async () => {
      const name = fresh();
      const failure = new Error('the work failed');
      await expect(leases[0].holding(name, TERMS, () => Promise.reject(failure))).rejects.toBe(failure);
      expect((await rowOf(name))?.holder).toBeNull();
    });

    it('renews the lease while the work runs past its term, so that no one else takes it', async () => {
      const name = fresh();
      const [here, there] = [leasesOn(sources[0], new Clock()), leasesOn(sources[1], new Clock())];
      const terms = { ttlMs: 400, waitMs: 0, retryMs: 10 };
      let takenMeanwhile: unknown = 'not tried';
      await here.holding(name, terms, async () => {
        await delay(1_000);
        takenMeanwhile = await there.tryAcquire(name, terms.ttlMs);
      });
      expect(takenMeanwhile).toBeUndefined();
      expect(await there.tryAcquire(name, terms.ttlMs)).toBeDefined();
    });
  });

  describe('written, inside a transaction', () => {
    it('ensure makes the row once, however many make it at once', async () => {
      const name = fresh();
      await Promise.all(Array.from({ length: 10 }, (_, i) => leases[i % 2].ensure(name)));
      expect(await rowOf(name)).toEqual({ holder: null, heldUntil: 0, version: 0 });
    });

    it("writes the row in the writer's transaction; with onlyIf false, no row changes and nothing is written", async () => {
      const name = fresh();
      await leases[0].ensure(name);
      const pool = new MultiStatementPool(sources[1]);
      const writer = new AtomicWriter(sources[1], pool);
      const tenant = (id: string): TenantEntity => ({
        id,
        name: id,
        type: 'business',
        status: 'pending_owner',
        createdAt: NOW,
      });
      const tenants = sources[0].getRepository(TenantEntity);
      const onlyWhile = (count: number): [string, unknown[]] => [
        "(SELECT COUNT(*) FROM tenants WHERE name LIKE 'lease-%') < ?",
        [count],
      ];
      /** As a domain claim: a tenant written only while there is none, after the row. */
      const insertAlone = (id: string) =>
        writer.insertIfAll(
          [[TenantEntity, tenant(id)]],
          [leases[1].written(name), leases[1].written(name, onlyWhile(1))],
        );
      expect(await insertAlone('lease-1')).toBe(true);
      expect((await rowOf(name))?.version).toBe(2);
      expect(await insertAlone('lease-2')).toBe(false);
      expect((await rowOf(name))?.version).toBe(2);
      expect(await tenants.countBy({ id: 'lease-2' })).toBe(0);
      await sources[1].getRepository(TenantEntity).delete({ id: 'lease-1' });
      await pool.onApplicationShutdown();
    });
  });
});

/** The migration lock (src/database/migration-lock.ts) holds a lease on MySQL; SQLite's one writer needs none. */
const onMysql = e2eDatabase() === 'mariadb' ? describe : ((() => undefined) as unknown as jest.Describe);

onMysql('The migration lock (MySQL)', () => {
  let database: TestDatabase;
  let sources: [DataSource, DataSource];

  beforeEach(async () => {
    database = await createTestDatabase({ empty: true });
    sources = await twoDataSources(database.url);
  });
  afterEach(async () => {
    await Promise.all(sources.map((source) => source.destroy()));
    await database.drop();
  });

  it('two runs at once on a fresh database: one applies every migration, the other none; the lease is released', async () => {
    const runs = await Promise.all(sources.map((source) => source.runMigrations({ transaction: 'each' })));
    expect(runs.map((applied) => applied.length).sort((a, b) => a - b)).toEqual([0, MIGRATIONS.length]);
    expect(await sources[0].getRepository(LeaseEntity).findBy({})).toEqual([
      { name: 'migrations', holder: null, heldUntil: '0', version: '0' },
    ]);
  });

  it("a dead holder's lease: a run waits until it runs out, then applies the migrations", async () => {
    await sources[0].runMigrations({ transaction: 'each' });
    await sources[0].undoLastMigration({ transaction: 'each' });
    const deadUntil = Date.now() + 1_500;
    await sources[0].query("UPDATE leases SET holder = 'dead', held_until = ? WHERE name = 'migrations'", [deadUntil]);
    const applied = await sources[1].runMigrations({ transaction: 'each' });
    expect(Date.now()).toBeGreaterThanOrEqual(deadUntil);
    expect(applied.map((migration) => migration.name)).toEqual([MIGRATIONS[MIGRATIONS.length - 1].name]);
  });
});

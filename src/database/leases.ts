import { setTimeout as delay } from 'node:timers/promises';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { RequiredUpdate } from './atomic-writer';
import { Statement } from './multi-statement-pool';
import { PreparedStatements } from './prepared-statements';
import { SqlStore } from './sql-store';

/** How a lease is held and waited for. */
export interface LeaseTerms {
  /** How long the lease holds unless renewed: a holder that died frees it after this. */
  ttlMs: number;
  /** How long `acquire` waits for another holder before it gives up (LeaseUnavailableError). */
  waitMs: number;
  /** The pause between attempts, stretched at random by up to as much again, so that waiters do not collide in step. */
  retryMs: number;
}

/** `acquire` waited `waitMs` and another holder still held the lease. */
export class LeaseUnavailableError extends Error {
  constructor(
    readonly leaseName: string,
    readonly waitedMs: number,
  ) {
    super(`The lease ${leaseName} was held by another for ${waitedMs} ms`);
  }
}

/** A row's name: the primary key of `leases` holds 191 characters. */
const MAX_NAME_LENGTH = 191;

const TAKE = 'UPDATE leases SET holder = ?, held_until = ? WHERE name = ? AND (holder IS NULL OR held_until < ?)';
const RENEW = 'UPDATE leases SET held_until = ? WHERE name = ? AND holder = ?';
const RELEASE = 'UPDATE leases SET holder = NULL, held_until = 0 WHERE name = ? AND holder = ?';
const WRITE = 'UPDATE leases SET version = version + 1 WHERE name = ?';

/**
 * A row made only when no row has its key (a parallel one may make it first): MySQL's INSERT IGNORE
 * (on a name checked for length and a holder of ours, nothing else that it ignores can happen),
 * SQLite's ON CONFLICT DO NOTHING. Either way, 1 changed row when this one made it, 0 otherwise.
 */
const INSERT_IF_MISSING = {
  mysql: 'INSERT IGNORE INTO leases (name, holder, held_until) VALUES (?, ?, ?)',
  sqlite: 'INSERT INTO leases (name, holder, held_until) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
};

/** A lease that this process holds, until it releases it or its time runs out unrenewed. */
export interface Lease {
  readonly name: string;
  /** Who holds it: a new random id for each acquisition. */
  readonly holder: string;
  /** How long it holds from its acquisition or its last renewal. */
  readonly ttlMs: number;
}

/**
 * Rows of `leases`, one per name, for work that must not run twice at once across processes and
 * database nodes (GET_LOCK would not do: each Galera node keeps its own):
 * - a lease, for work that spans more than one transaction (migrations; SCIM's count of the owners
 *   and the identity store's writes after it): a compare-and-set of its holder, taken when no one
 *   holds it or its holder's time ran out (a holder that died), renewed while the work runs,
 *   released after it;
 * - `written`, for work inside one transaction: the transaction writes the row first, so that every
 *   other transaction that writes it waits for it (a row lock; on Galera a write-set conflict that
 *   AtomicWriter runs again), and the database lets go of it with the transaction, whatever happens.
 * A name serves one of the two. Rows are made on first use; times are the Clock's epoch milliseconds.
 */
@SqlStore()
export class Leases {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** The lease, when no one holds it or its holder's time ran out; else undefined. One attempt. */
  async tryAcquire(name: string, ttlMs: number): Promise<Lease | undefined> {
    checkName(name);
    const holder = this.ids.uuid();
    const now = this.now();
    if ((await this.statements.changes(TAKE, [holder, now + ttlMs, name, now])) === 1) return { name, holder, ttlMs };
    // No row that this could take: none at all yet (first use), or another's.
    const made = await this.statements.changes(INSERT_IF_MISSING[this.statements.dialect], [name, holder, now + ttlMs]);
    return made === 1 ? { name, holder, ttlMs } : undefined;
  }

  /** The lease, waiting for another holder up to `waitMs`; then LeaseUnavailableError. */
  async acquire(name: string, terms: LeaseTerms): Promise<Lease> {
    const giveUpAt = performance.now() + terms.waitMs;
    for (;;) {
      const lease = await this.tryAcquire(name, terms.ttlMs);
      if (lease) return lease;
      if (performance.now() > giveUpAt) throw new LeaseUnavailableError(name, terms.waitMs);
      await delay(terms.retryMs * (1 + Math.random()));
    }
  }

  /**
   * Runs `work` holding the lease (acquire's wait and error first), renewing it every quarter of its
   * term, and releases it after. A release that fails is left to expire: the work's outcome stands.
   */
  async holding<T>(name: string, terms: LeaseTerms, work: () => Promise<T>): Promise<T> {
    const lease = await this.acquire(name, terms);
    const renewal = setInterval(() => void this.renew(lease).catch(() => undefined), terms.ttlMs / 4);
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.release(lease).catch(() => undefined);
    }
  }

  /** Holds the lease `ttlMs` from now: false when it is no longer its holder's (it ran out and another took it). */
  async renew(lease: Lease): Promise<boolean> {
    return (await this.statements.changes(RENEW, [this.now() + lease.ttlMs, lease.name, lease.holder])) === 1;
  }

  /** Gives the lease back, if it is still its holder's: the next waiter takes it at once. */
  async release(lease: Lease): Promise<void> {
    await this.statements.changes(RELEASE, [lease.name, lease.holder]);
  }

  /** The row of `name`, made if missing: before a transaction that writes it (`written`). */
  async ensure(name: string): Promise<void> {
    checkName(name);
    await this.statements.changes(INSERT_IF_MISSING[this.statements.dialect], [name, null, 0]);
  }

  /**
   * A transaction's write of the row of `name` (made by `ensure`), as AtomicWriter's compare-and-set:
   * it changes the row, so that the transactions that write it run one after another. `onlyIf`: a
   * condition (SQL and its parameters) that the row is written only under; when it does not hold,
   * no row changes and the writer writes nothing.
   */
  written(name: string, onlyIf?: Statement): RequiredUpdate {
    if (!onlyIf) return [WRITE, [name]];
    const [condition, parameters] = onlyIf;
    return [`${WRITE} AND (${condition})`, [name, ...parameters]];
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}

function checkName(name: string): void {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH)
    throw new Error(`A lease name has 1 to ${MAX_NAME_LENGTH} characters, not ${name.length}`);
}

import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { DataSource, DataSourceOptions, Migration, ObjectLiteral } from 'typeorm';
import { isWriteConflict } from './write-conflicts';

/** How long the migration lock is held without being renewed: a holder that died frees it after this. */
export const MIGRATION_LEASE_MS = 60_000;
/** How long an instance waits for another one's migrations before it gives up (start-up fails). */
export const MIGRATION_WAIT_MS = 10 * 60_000;

/** The lock's table: one row while some process runs migrations. Created by the lock itself, before any migration. */
const CREATE_LOCK_TABLE =
  'CREATE TABLE IF NOT EXISTS migration_lock (id INT NOT NULL PRIMARY KEY, holder VARCHAR(36) NOT NULL, ' +
  'expires_at BIGINT NOT NULL) ENGINE=InnoDB';

/**
 * The service's DataSource (the app, the CLI and `npm run migration:run` make theirs from this
 * class), with what a cluster of MySQL servers needs on top of TypeORM's:
 * - DATABASE_URL with several hosts: each mysql2 pool (TypeORM's and the MultiStatementPool)
 *   is a pool cluster that uses the first host that answers, moves to the next one when a
 *   connection to it fails, and tries the first again after FAILOVER_RETRY_MS.
 * - Migrations that run once however many processes start them at the same time, on one node
 *   or on several: the lock is a row (a conditional insert, or the update of an expired lease),
 *   never GET_LOCK, which each Galera node keeps to itself. The others wait for it, then find
 *   nothing left to apply. SQLite needs none: its one writer already excludes the others.
 */
export class ClusteredDataSource extends DataSource {
  constructor(options: DataSourceOptions) {
    super(options);
    if (options.type !== 'mysql') return;
    const driver = this.driver as unknown as { mysql: MysqlModule };
    const mysql = driver.mysql;
    // TypeORM's pool and the MultiStatementPool are both made by the driver's mysql2 module.
    driver.mysql = Object.assign(Object.create(mysql) as MysqlModule, {
      createPool: (config: ObjectLiteral) => failoverPool(mysql, config),
    });
  }

  /** The names of the migrations that this process's last run applied (undefined before one): the start-up summary says them. */
  appliedMigrations?: string[];

  override async runMigrations(options?: Parameters<DataSource['runMigrations']>[0]): Promise<Migration[]> {
    const applied =
      this.options.type === 'mysql'
        ? await this.holdingMigrationLock(() => super.runMigrations(options))
        : await super.runMigrations(options);
    this.appliedMigrations = applied.map((migration) => migration.name);
    return applied;
  }

  private async holdingMigrationLock<T>(work: () => Promise<T>): Promise<T> {
    await this.query(CREATE_LOCK_TABLE);
    const holder = randomUUID();
    const giveUpAt = Date.now() + MIGRATION_WAIT_MS;
    while (!(await this.tryMigrationLock(holder))) {
      if (Date.now() > giveUpAt) {
        throw new Error(`Another process has held the migration lock for ${MIGRATION_WAIT_MS / 60_000} minutes`);
      }
      await delay(200 + Math.random() * 300);
    }
    const renewal = setInterval(
      () =>
        void this.query('UPDATE migration_lock SET expires_at = ? WHERE id = 1 AND holder = ?', [
          Date.now() + MIGRATION_LEASE_MS,
          holder,
        ]).catch(() => undefined),
      MIGRATION_LEASE_MS / 4,
    );
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.query('DELETE FROM migration_lock WHERE id = 1 AND holder = ?', [holder]).catch(() => undefined);
    }
  }

  /** Takes the lock when no one holds it, or when its holder's lease has run out. */
  private async tryMigrationLock(holder: string): Promise<boolean> {
    const now = Date.now();
    try {
      const inserted = (await this.query(
        'INSERT IGNORE INTO migration_lock (id, holder, expires_at) VALUES (1, ?, ?)',
        [holder, now + MIGRATION_LEASE_MS],
      )) as { affectedRows: number };
      if (inserted.affectedRows === 1) return true;
      const taken = (await this.query(
        'UPDATE migration_lock SET holder = ?, expires_at = ? WHERE id = 1 AND expires_at < ?',
        [holder, now + MIGRATION_LEASE_MS, now],
      )) as { affectedRows: number };
      return taken.affectedRows === 1;
    } catch (error) {
      // Two nodes that took the row at once: Galera lets one commit, the other is told 1213.
      if (isWriteConflict(error)) return false;
      throw error;
    }
  }
}

/** After a host failed to connect, how long before the pool tries it again (while the next one serves). */
export const FAILOVER_RETRY_MS = 2_000;

/** The parts of mysql2 that the pools are made with. */
interface MysqlModule {
  createPool(config: ObjectLiteral): unknown;
  createPoolCluster(config: ObjectLiteral): PoolCluster;
}
interface PoolNamespace {
  getConnection(done: (...args: unknown[]) => void): void;
  query(...args: unknown[]): unknown;
  execute(...args: unknown[]): unknown;
}
interface PoolCluster {
  add(id: string, config: ObjectLiteral): void;
  of(pattern: string, selector: string): PoolNamespace;
  end(done?: (error?: unknown) => void): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  /** mysql2's own record of the hosts' pools (not in its types). */
  _nodes: Record<string, { pool: { on(event: string, listener: (...args: unknown[]) => void): void } }>;
}

/**
 * A pool for the connection settings, as mysql2's createPool; with `failoverHosts` (set from
 * DATABASE_URL's hosts, `host:port`), a mysql2 pool cluster in their order that answers as one pool.
 */
function failoverPool(mysql: MysqlModule, config: ObjectLiteral): unknown {
  const { failoverHosts, ...settings } = config as { failoverHosts?: string[] } & ObjectLiteral;
  if (!failoverHosts) return mysql.createPool(settings);
  const cluster = mysql.createPoolCluster({
    canRetry: true,
    removeNodeErrorCount: 1,
    restoreNodeTimeout: FAILOVER_RETRY_MS,
    defaultSelector: 'ORDER',
  });
  failoverHosts.forEach((address, index) => {
    const [host, port] = address.split(':');
    cluster.add(`HOST${index}`, { ...settings, host, port: Number(port) });
  });
  // A failed connection is retried on the next host; the warning says nothing that the error does not.
  cluster.on('warn', () => undefined);
  const hosts = cluster.of('HOST*', 'ORDER');
  return {
    getConnection: (done: (...args: unknown[]) => void) => hosts.getConnection(done),
    query: (...args: unknown[]) => hosts.query(...args),
    execute: (...args: unknown[]) => hosts.execute(...args),
    end: (done?: (error?: unknown) => void) => cluster.end(done),
    // 'connection' (a new connection, before its first use) is each host's pool's event.
    on: (event: string, listener: (...args: unknown[]) => void) => {
      if (event !== 'connection') return cluster.on(event, listener);
      for (const node of Object.values(cluster._nodes)) node.pool.on(event, listener);
    },
  };
}

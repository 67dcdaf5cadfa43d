import { DataSource, ObjectLiteral } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { hostPoolsOf } from './mysql2-internals';

/** After a host failed to connect, how long before the pool tries it again (while the next one serves). */
export const FAILOVER_RETRY_MS = 2_000;

/** The parts of mysql2 that the pools are made with. */
export interface MysqlModule {
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
}

/**
 * mysql2 as the service's MySQL data sources load it (TypeORM's `driver` option, given by
 * ClusteredDataSource), for each pool made with it (TypeORM's and the MultiStatementPool's):
 * - with `failoverHosts` in its settings (DATABASE_URL's hosts, `host:port`), a mysql2 pool cluster
 *   that answers as one pool: it uses the first host that answers, moves to the next one when a
 *   connection to it fails, and tries the first again after FAILOVER_RETRY_MS;
 * - the settings of the first pool, TypeORM's, from which `anotherPool` makes another that connects
 *   as TypeORM's does (TypeORM offers no public way to its connection settings).
 */
export class FailoverMysql {
  private typeormSettings?: ObjectLiteral;

  constructor(private readonly mysql: MysqlModule) {}

  createPool(config: ObjectLiteral): unknown {
    this.typeormSettings ??= config;
    return failoverPool(this.mysql, config);
  }

  /** A pool with the connection settings of TypeORM's, and `overrides`. */
  anotherPool(overrides: ObjectLiteral): unknown {
    if (!this.typeormSettings) throw new Error('The data source is not initialised: TypeORM has made no pool yet');
    return this.createPool({ ...this.typeormSettings, ...overrides });
  }
}

/** The FailoverMysql of a data source that ClusteredDataSource made (its driver's `mysql`). */
export function failoverMysqlOf(dataSource: DataSource): FailoverMysql {
  const { mysql } = dataSource.driver as MysqlDriver;
  if (!(mysql instanceof FailoverMysql)) throw new Error('A MySQL data source made by ClusteredDataSource is needed');
  return mysql;
}

/** A pool for the connection settings, as mysql2's createPool; with `failoverHosts`, a pool cluster in their order. */
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
    on: (event: string, listener: (...args: unknown[]) => void) => {
      if (event !== 'connection') return cluster.on(event, listener);
      for (const pool of hostPoolsOf(cluster)) pool.on(event, listener);
    },
  };
}

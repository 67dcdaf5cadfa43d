import * as mysql2 from 'mysql2';
import { ObjectLiteral } from 'typeorm';
import { EventEmitter } from 'node:events';
import { FailoverMysql, MysqlModule } from './failover-pool';
import { hostPoolsOf } from './mysql2-internals';

/** FailoverMysql: what it makes its pools from, with no server (no pool here opens a connection). */
describe(FailoverMysql.name, () => {
  const made: ObjectLiteral[] = [];
  const recording: MysqlModule = {
    createPool: (config) => made.push(config),
    createPoolCluster: (config) => mysql2.createPoolCluster(config) as never,
  };
  beforeEach(() => (made.length = 0));

  it("anotherPool connects as TypeORM's pool does (its settings, the first pool made), with the overrides", () => {
    const connector = new FailoverMysql(recording);
    connector.createPool({ host: 'db', user: 'app', charset: 'utf8mb4_unicode_ci' });
    connector.anotherPool({ multipleStatements: true });
    expect(made).toEqual([
      { host: 'db', user: 'app', charset: 'utf8mb4_unicode_ci' },
      { host: 'db', user: 'app', charset: 'utf8mb4_unicode_ci', multipleStatements: true },
    ]);
  });

  it('anotherPool before TypeORM made its pool is an error, not a pool with no settings', () => {
    expect(() => new FailoverMysql(recording).anotherPool({})).toThrow('not initialised');
  });

  it("with failoverHosts: one pool cluster over the hosts; a 'connection' listener is on each host's pool", async () => {
    const clusters: ReturnType<typeof mysql2.createPoolCluster>[] = [];
    const connector = new FailoverMysql({
      ...recording,
      createPoolCluster: (config) => {
        clusters.push(mysql2.createPoolCluster(config));
        return clusters[0] as never;
      },
    });
    const pool = connector.createPool({ user: 'app', failoverHosts: ['10.0.0.1:3306', '10.0.0.2:3307'] }) as {
      on(event: string, listener: () => void): void;
      end(done: () => void): void;
    };
    pool.on('connection', () => undefined);
    expect(made).toEqual([]);
    const hosts = hostPoolsOf(clusters[0]) as unknown as EventEmitter[];
    expect(hosts.map((host) => host.listenerCount('connection'))).toEqual([1, 1]);
    await new Promise<void>((done) => pool.end(done));
  });
});

import * as mysql2 from 'mysql2';
import { EventEmitter } from 'node:events';
import { hostPoolsOf } from './mysql2-internals';

/** Pins what mysql2-internals reads on the installed mysql2: an upgrade that moves it fails here. */
describe('mysql2 internals', () => {
  it("hostPoolsOf: a PoolCluster keeps each host's pool, an event emitter of mysql2's Pool, in _nodes", async () => {
    // Adding hosts opens no connection.
    const cluster = mysql2.createPoolCluster();
    cluster.add('HOST0', { host: '127.0.0.1', port: 1 });
    cluster.add('HOST1', { host: '127.0.0.1', port: 2 });
    try {
      const pools = hostPoolsOf(cluster);
      expect(pools).toHaveLength(2);
      for (const pool of pools) {
        expect(pool.constructor.name).toBe('Pool');
        expect(pool).toBeInstanceOf(EventEmitter);
      }
    } finally {
      await new Promise((done) => cluster.end(done));
    }
  });

  it('hostPoolsOf names the file to fix when the field is gone', () => {
    expect(() => hostPoolsOf({})).toThrow('src/database/mysql2-internals.ts');
  });
});

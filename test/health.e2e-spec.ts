import { Logger } from '@nestjs/common';
import { MIGRATIONS } from '../migrations';
import { ShutdownState } from '../src/health/shutdown-state';
import { IdentityStore } from '../src/identity/identity-store';
import { cognitoOnly, localOnly } from './support/test-identity';
import { TEST_REDIS_URL } from './support/test-redis';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

/** The first arguments of a Logger method's calls made by loggers of `context`. */
const linesOf = (method: jest.SpyInstance, context: string) =>
  method.mock.contexts.flatMap((logger, i) =>
    (logger as { context?: string }).context === context ? [method.mock.calls[i][0] as unknown] : [],
  );

const withRedis = TEST_REDIS_URL ? it : it.skip;

/** Liveness and readiness for the load balancer. */
describe('health (GET /health/live, GET /health/ready)', () => {
  describe('one instance', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());
    afterEach(() => jest.restoreAllMocks());

    it('live: 200 while the process is up, never cached, no session needed', async () => {
      const res = await t.http.get('/health/live');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'ok' });
      expect(res.headers['cache-control']).toContain('no-store');
    });

    it('ready: 200 when the database answers; the identity store is checked in cognito mode only', async () => {
      const res = await t.http.get('/health/ready');
      expect(res.status).toBe(200);
      const expected: Record<string, unknown> = { database: { status: 'up' } };
      if (t.config.identityStore === 'cognito') expected.identityStore = { status: 'up' };
      expect(res.body).toEqual({ status: 'ok', info: expected, error: {}, details: expected });
    });

    it('ready: 503 naming the database when it does not answer; live stays 200', async () => {
      jest.spyOn(t.dataSource, 'query').mockRejectedValue(new Error('connect ECONNREFUSED db.internal:3306'));
      const res = await t.http.get('/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });
      expect(JSON.stringify(res.body)).not.toContain('db.internal');
      expect((await t.http.get('/health/live')).status).toBe(200);
    });

    it('ready: a database that hangs is down after the ping timeout, not a hanging probe', async () => {
      jest.spyOn(t.dataSource, 'query').mockReturnValue(new Promise(() => undefined));
      const started = Date.now();
      const res = await t.http.get('/health/ready');
      expect(res.status).toBe(503);
      expect(res.body.error.database).toEqual({ status: 'down', message: 'timeout of 1500ms exceeded' });
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    cognitoOnly('ready: 503 naming the identity store when Cognito does not answer, without its message', async () => {
      jest.spyOn(t.identity, 'ping').mockRejectedValue(new Error('getaddrinfo ENOTFOUND cognito-idp.internal'));
      const res = await t.http.get('/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        status: 'error',
        info: { database: { status: 'up' } },
        error: { identityStore: { status: 'down', message: 'unreachable' } },
      });
    });

    localOnly('ready: the local identity store lives in the database, so it is not probed apart', async () => {
      const ping = jest.spyOn(t.app.get(IdentityStore), 'ping');
      expect((await t.http.get('/health/ready')).status).toBe(200);
      expect(ping).not.toHaveBeenCalled();
    });

    it('ready: a failing dependency is logged at error, once while it stays down, and its return once', async () => {
      const errors = jest.spyOn(Logger.prototype, 'error');
      const infos = jest.spyOn(Logger.prototype, 'log');
      const query = jest.spyOn(t.dataSource, 'query').mockRejectedValue(new Error('connect ECONNREFUSED'));
      expect((await t.http.get('/health/ready')).status).toBe(503);
      expect((await t.http.get('/health/ready')).status).toBe(503);
      query.mockRestore();
      expect((await t.http.get('/health/ready')).status).toBe(200);
      expect((await t.http.get('/health/ready')).status).toBe(200);
      expect(linesOf(errors, 'Readiness')).toEqual(['Not ready: database']);
      expect(linesOf(errors, 'HttpExceptionFilter')).toEqual([]);
      expect(linesOf(infos, 'Readiness')).toEqual(['Ready again']);
    });

    it('ready: 503 shutting_down once shutdown has begun; live stays 200; connections are not kept alive', async () => {
      t.app.get(ShutdownState).begin();
      const ready = await t.http.get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'shutting_down', info: {}, error: {}, details: {} });
      expect(ready.headers.connection).toBe('close');
      const live = await t.http.get('/health/live');
      expect(live.status).toBe(200);
    });

    it('ready: a drain is no fault: its 503s log nothing at warn or error (the shutdown says it at info)', async () => {
      const warnings = jest.spyOn(Logger.prototype, 'warn');
      const errors = jest.spyOn(Logger.prototype, 'error');
      t.app.get(ShutdownState).begin();
      expect((await t.http.get('/health/ready')).status).toBe(503);
      expect((await t.http.get('/health/ready')).status).toBe(503);
      expect([...warnings.mock.calls, ...errors.mock.calls]).toEqual([]);
    });
  });

  describe('with REDIS_URL', () => {
    it('an unreachable Redis is reported but keeps the instance ready: rate limits fall back to memory', async () => {
      // Port 1 on loopback: nothing listens there, so the connection is refused at once.
      const t = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
      try {
        const started = Date.now();
        const res = await t.http.get('/health/ready');
        expect(res.status).toBe(200);
        expect(res.body.details.redis).toEqual({
          status: 'up',
          degraded: true,
          message: 'unreachable: rate-limit counters are per instance until Redis is back',
        });
        expect(Date.now() - started).toBeLessThan(3_000);
      } finally {
        await t.close();
      }
    });

    withRedis('a reachable Redis is up', async () => {
      const t = await createTestApp({ env: { REDIS_URL: TEST_REDIS_URL! } });
      try {
        const res = await t.http.get('/health/ready');
        expect(res.status).toBe(200);
        expect(res.body.details.redis).toEqual({ status: 'up' });
      } finally {
        await t.close();
      }
    });
  });

  describe('with DB_MIGRATIONS_RUN=false', () => {
    it('ready: 503 naming the pending migrations until applied; one warn line (not error) at start and one at the first 503', async () => {
      const warnings = jest.spyOn(Logger.prototype, 'warn');
      const errors = jest.spyOn(Logger.prototype, 'error');
      const database = await createTestDatabase({ empty: true });
      const t = await createTestApp({ database, env: { DB_MIGRATIONS_RUN: 'false' } });
      try {
        // Every migration, by name, in order (MIGRATIONS lists them all).
        const pending = MIGRATIONS.map((migration) => migration.name);
        expect(linesOf(warnings, 'Migrations')).toEqual([
          `${pending.length} database migration(s) pending (${pending.join(', ')}) and DB_MIGRATIONS_RUN=false: ` +
            'readiness fails until `npm run migration:run` applies them',
        ]);
        expect((await t.http.get('/health/ready')).status).toBe(503);
        expect(linesOf(warnings, 'Readiness')).toEqual([
          `Not ready: migrations (${pending.length} migration(s) pending: run npm run migration:run)`,
        ]);

        const before = await t.http.get('/health/ready');
        expect(before.status).toBe(503);
        expect(before.body).toMatchObject({
          status: 'error',
          info: { database: { status: 'up' } },
          error: {
            migrations: {
              status: 'down',
              message: `${pending.length} migration(s) pending: run npm run migration:run`,
            },
          },
        });

        await t.dataSource.runMigrations({ transaction: 'each' });
        const after = await t.http.get('/health/ready');
        expect(after.status).toBe(200);
        expect(after.body.info).toMatchObject({ database: { status: 'up' }, migrations: { status: 'up' } });
        // A normal deploy: neither the migrations nor readiness log at error, so that no alert fires.
        expect([...linesOf(errors, 'Migrations'), ...linesOf(errors, 'Readiness')]).toEqual([]);
        expect(linesOf(errors, 'HttpExceptionFilter')).toEqual([]);
      } finally {
        jest.restoreAllMocks();
        await t.close();
        await database.drop();
      }
    });
  });
});

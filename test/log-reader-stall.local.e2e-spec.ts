import { connect } from 'node:net';
import { documentedFetch } from './support/documented-http';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from './support/eventually';
import { sample } from './support/prometheus';
import { builtCommand, ServerProcess, startServerProcess } from './support/server-process';
import { TEST_JWT_SECRET } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

const GRACE_SECONDS = 3;
const DROP_REPORT = /^(\d+) log lines were dropped while the log reader was stalled$/;

interface LogLine {
  level: string;
  msg: string;
}

/**
 * Answers `count` requests, 16 at a time, each logged on a line of about 8 kB (its URL): enough
 * to fill the pipe and the service's buffer many times over while nobody reads stdout.
 */
async function logHeavily(url: string, count: number): Promise<number[]> {
  const path = `/no-such-route/${'x'.repeat(8_000)}`;
  const statuses: number[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (started++ < count) statuses.push((await fetch(`${url}${path}`)).status);
    }),
  );
  return statuses;
}

/** Sends SIGTERM; resolves with the exit code, or 'still running' well after the grace period, and how long it took. */
async function stop(server: ServerProcess): Promise<{ exit: number | null | string; afterMs: number }> {
  const signalled = Date.now();
  server.child.kill('SIGTERM');
  const exit = await Promise.race([
    server.exited,
    sleep(GRACE_SECONDS * 1_000 + 5_000, 'still running', { ref: false }),
  ]);
  return { exit, afterMs: Date.now() - signalled };
}

/** Writing a log line never blocks the event loop, even with stdout on a pipe that nobody reads (a stalled log shipper). */
describe('a stalled log reader (the built service, stdout unread)', () => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  const start = async () => {
    const server = await startServerProcess(
      {
        NODE_ENV: 'production',
        AUTH_JWT_SECRET: TEST_JWT_SECRET,
        DATABASE_URL: database.url,
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_SECONDS: '0',
        SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      },
      { command: builtCommand(['node', 'dist/src/main.js']), stdoutUnread: true },
    );
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await database?.drop();
  });

  it('serving goes on; lines beyond the buffer are dropped and counted, and reported once the reader is back', async () => {
    const server = await start();
    expect(new Set(await logHeavily(server.url, 600))).toEqual(new Set([404]));

    const dropped = sample((await documentedFetch(server.url, '/metrics')).text, 'log_lines_dropped_total');
    expect(dropped).toBeGreaterThan(0);

    let output = '';
    server.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString())).resume();
    const lines = () =>
      output
        .split('\n')
        .slice(0, -1) // the last may still be arriving
        .map((line) => JSON.parse(line) as LogLine); // whole lines only: a line is dropped whole or written whole
    const report = await eventually(() => {
      const found = lines().find((line) => DROP_REPORT.test(line.msg));
      if (!found) throw new Error('no report of the dropped lines yet');
      return found;
    });
    expect(report.level).toBe('warn');
    expect(Number(DROP_REPORT.exec(report.msg)![1])).toBe(dropped);

    // With the reader back, the last lines are written before the exit.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await eventually(() => expect(lines().map((line) => line.msg)).toContain('Shut down cleanly'));
  }, 60_000);

  it(`SIGTERM: the service stops within SHUTDOWN_GRACE_SECONDS (${GRACE_SECONDS}), its last lines given up on`, async () => {
    const server = await start();
    await logHeavily(server.url, 300);

    const { exit, afterMs } = await stop(server);
    expect(exit).toBe(0);
    expect(afterMs).toBeLessThan(GRACE_SECONDS * 1_000 + 500);
  }, 60_000);

  it('SIGTERM while a request holds the shutdown up: the grace timer still ends it within SHUTDOWN_GRACE_SECONDS', async () => {
    const server = await start();
    await logHeavily(server.url, 300);
    // A body that never arrives: the request stays in flight until the grace period is over.
    const held = connect(server.port, '127.0.0.1');
    held.on('error', () => undefined);
    held.write(
      'POST /api/admin/tenants HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    await sleep(200);

    const { exit, afterMs } = await stop(server);
    held.destroy();
    expect(exit).toBe(1);
    expect(afterMs).toBeGreaterThanOrEqual(GRACE_SECONDS * 1_000);
    expect(afterMs).toBeLessThan(GRACE_SECONDS * 1_000 + 500);
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import { documentedFetch } from './support/documented-http';
import { Agent, request } from 'node:http';
import { DataSource } from 'typeorm';
import { parseConfig } from '../src/config/app-config';
import { dataSourceOptions } from '../src/database/data-source-options';
import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { refused, ServerProcess, startServerProcess } from './support/server-process';
import { TEST_JWT_SECRET } from './support/test-app';

const DRAIN_MS = 1_000;
const BODY = JSON.stringify({ note: 'sent slowly, to keep the request in flight' });

interface Answer {
  status: number;
  body: unknown;
}

/**
 * A POST whose body arrives in two parts: between them the request is in flight on the server
 * (headers read, body awaited). No test-only route is needed for a slow request.
 */
function slowAccept(port: number, token: string, agent: Agent | false) {
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/api/invitations/${token}`,
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(BODY) },
    agent,
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
  });
  req.write(BODY.slice(0, 10));
  return { finish: () => req.end(BODY.slice(10)), answer };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SIGTERM (docs/deploying.md, "Stopping: SIGTERM"), on the real server process. */
describe('graceful shutdown (SIGTERM on the server process)', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let dataSource: DataSource;
  const keepAlive = new Agent({ keepAlive: true });

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startServerProcess({
      DATABASE_URL: database.url,
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      IDENTITY_STORE: 'local',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_SECONDS: String(DRAIN_MS / 1_000),
      SHUTDOWN_GRACE_SECONDS: '15',
    });
    // The server ran the migrations; this connection only adds rows.
    dataSource = await new DataSource(
      dataSourceOptions(parseConfig({ DATABASE_URL: database.url, DB_MIGRATIONS_RUN: 'false' })),
    ).initialize();
  }, 60_000);

  afterAll(async () => {
    keepAlive.destroy();
    await server?.kill();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('fails readiness first, refuses new connections, lets in-flight requests finish, then exits 0', async () => {
    const tenantId = randomUUID();
    await dataSource
      .getRepository(TenantEntity)
      .insert({ id: tenantId, name: 'Acme', type: 'business', status: 'pending_owner', createdAt: new Date() });
    const invitations: InvitationEntity[] = Array.from({ length: 4 }, () => ({
      id: randomUUID(),
      tenantId,
      email: `invitee-${randomUUID()}@example.com`,
      role: 'member',
      status: 'pending',
      expiresAt: new Date(Date.now() + 86_400_000),
      invitedBy: 'inviter',
      createdAt: new Date(),
    }));
    await dataSource.getRepository(InvitationEntity).insert(invitations);

    // An idle keep-alive connection must not hold the shutdown up.
    await new Promise<void>((resolve, reject) =>
      request({ host: '127.0.0.1', port: server.port, path: '/health/live', agent: keepAlive }, (res) =>
        res.resume().on('end', resolve),
      )
        .on('error', reject)
        .end(),
    );
    // Slow requests, one of them on a keep-alive connection.
    const slow = invitations.map((invitation, i) =>
      slowAccept(server.port, invitation.id, i === 0 ? keepAlive : false),
    );
    await sleep(300); // their headers have reached the server

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await sleep(200);
    const ready = await documentedFetch(server.url, '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.json).toMatchObject({ status: 'shutting_down' });

    let closed = false;
    while (!closed && Date.now() - signalledAt < DRAIN_MS + 3_000) {
      closed = await refused(server.port);
      if (!closed) await sleep(50);
    }
    expect(closed).toBe(true);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS - 50);
    expect(server.child.exitCode).toBeNull(); // still serving the requests in flight

    for (const request of slow) request.finish();
    const answers = await Promise.all(slow.map((request) => request.answer));
    for (const [i, answer] of answers.entries()) {
      expect(answer).toEqual({ status: 200, body: { success: true, tenantId, role: 'member' } });
      expect(await dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitations[i].id })).toMatchObject(
        { status: 'accepted' },
      );
    }

    expect(await server.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(DRAIN_MS + 5_000);

    const lines = server
      .output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { context?: string; msg: string });
    expect(lines.filter((line) => line.context === 'Shutdown').map((line) => line.msg)).toEqual([
      `SIGTERM: readiness fails from now on; draining for ${DRAIN_MS} ms`,
      'No longer accepting connections; waiting for in-flight requests',
      'Shut down cleanly',
    ]);
    for (const invitation of invitations) expect(server.output()).not.toContain(invitation.id);
  }, 30_000);
});

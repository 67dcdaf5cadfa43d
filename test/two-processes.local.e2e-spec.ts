import { newInviter } from './support/inviting';
import { documentedFetch } from './support/documented-http';
import { ServerProcess, startServerProcess } from './support/server-process';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/** Two server processes start one after the other: seconds each. */
const PROCESS_TEST_MS = 120_000;
const INVITES = 50;

/**
 * Two processes of the service on one database, as a developer's second instance runs the embedded
 * default (one SQLite file in e2e:sqlite; one MariaDB database in e2e:mariadb). On SQLite a
 * transaction that will write begins as a writer (BEGIN IMMEDIATE) and waits for the other
 * process's lock within the busy timeout: no "database is locked" reaches a caller.
 */
describe('two processes on one database', () => {
  let database: TestDatabase;
  let helper: TestApp;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    helper = await createTestApp({ database });
    // One after the other: the first one's migrations have run when the second starts.
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServerProcess({
          DATABASE_URL: database.url,
          AUTH_JWT_SECRET: TEST_JWT_SECRET,
          INVITE_RATE_LIMIT: '1000',
        }),
      );
    }
  }, PROCESS_TEST_MS);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await helper?.close();
    await database?.drop();
  });

  it(
    `${INVITES} parallel invites spread over both processes: each one stored, none answered 5xx`,
    async () => {
      const inviter = await newInviter(helper);
      const emails = Array.from({ length: INVITES }, (_, i) => `parallel-${i}@example.com`);
      const answers = await Promise.all(
        emails.map(async (email, i) => {
          const res = await documentedFetch(servers[i % 2].url, '/api/org/invite', {
            method: 'POST',
            headers: { cookie: inviter.cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ email, role: 'member' }),
          });
          return { email, status: res.status, body: res.json as Record<string, unknown> };
        }),
      );

      expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
      const stored = (await helper.dataSource.query(
        'SELECT email FROM tenant_invitations WHERE tenant_id = ? ORDER BY email',
        [inviter.tenant.id],
      )) as { email: string }[];
      expect(stored.map((row) => row.email)).toEqual([...emails].sort());
      for (const server of servers) expect(server.output()).not.toMatch(/database is locked|SQLITE_BUSY/);
    },
    PROCESS_TEST_MS,
  );
});

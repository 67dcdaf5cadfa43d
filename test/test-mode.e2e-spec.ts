import { spawnSync } from 'node:child_process';
import { Clock } from '../src/common/clock';
import {
  AuditEventEntity,
  InvitationEmailOutboxEntity,
  InvitationEntity,
  TenantEntity,
} from '../src/database/entities';
import { eventually } from './support/eventually';
import { INVITATION_GET, INVITE_ERRORS } from './support/spec-bodies';
import { factories } from './support/factories';
import { newInviter } from './support/inviting';
import { builtCommand, ROOT, serviceEnv } from './support/server-process';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { useTwoInstances } from './support/suites';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { e2eIdentityMode } from './support/test-identity';
import { describeWithRedis, TEST_REDIS_URL } from './support/test-redis';
import { invalidRequest } from './support/documented-http';

const KEY = 'qa-suite-key-0123456789-abcdef';
const TEST_MODE_ENV = { TEST_MODE: 'true', TEST_MODE_KEY: KEY };
const SEVEN_DAYS_SECONDS = 7 * 24 * 3600;
/** INVITE_RATE_WINDOW_SECONDS, left at its default. */
const WINDOW_SECONDS = 3600;

const invite = (t: TestApp, cookie: string, email: string) =>
  t.http.post('/api/org/invite').set('Cookie', cookie).send({ email, role: 'member' });
const mailbox = (t: TestApp, to: string) => t.http.get('/api/test/mailbox').query({ to }).set('X-Test-Mode-Key', KEY);
const eventsOf = (t: TestApp, type: string) => t.dataSource.getRepository(AuditEventEntity).findBy({ type });
const moveClock = async (t: TestApp, advanceSeconds: number) =>
  expect((await t.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ advanceSeconds })).status).toBe(200);
const quota = (t: TestApp, cookie: string) => t.http.get('/api/org/invite/quota').set('Cookie', cookie);

/**
 * The invitation limit's windows follow the clock: a caller refused 429 is refused still once the
 * clock has moved half the window (Retry-After shrunk by as much, the quota's resetAt the same
 * instant), and invites again once it has moved the other half. Invites through `inviting`,
 * moves the clock through `moving`, whose offset `inviting` may take a moment to follow.
 */
async function expectWindowsMovedWithTheClock(inviting: TestApp, moving: TestApp, limit: number) {
  const inviter = await newInviter(inviting);
  const address = (n: number) => `window-${n}-${inviter.user.id}@example.com`;
  for (let n = 1; n <= limit; n++) expect((await invite(inviting, inviter.cookie, address(n))).status).toBe(200);
  const refused = await invite(inviting, inviter.cookie, address(limit + 1));
  expect([refused.status, refused.body]).toEqual([429, INVITE_ERRORS.rateLimited]);
  const { resetAt } = (await quota(inviting, inviter.cookie)).body;

  await moveClock(moving, WINDOW_SECONDS / 2);
  const still = await invite(inviting, inviter.cookie, address(limit + 2));
  expect([still.status, still.body]).toEqual([429, INVITE_ERRORS.rateLimited]);
  const retryAfter = Number(still.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(WINDOW_SECONDS / 2 - 5);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS / 2);
  expect(still.headers['ratelimit-reset']).toBe(String(retryAfter));
  await eventually(async () => {
    const moved = await quota(inviting, inviter.cookie);
    expect(moved.body).toEqual({ limit, remaining: 0, resetAt: expect.any(String) });
    // The same instant on the moved clock, to the second that it is rounded to.
    expect(Math.abs(Date.parse(moved.body.resetAt) - Date.parse(resetAt))).toBeLessThanOrEqual(1_000);
  });

  await moveClock(moving, WINDOW_SECONDS / 2);
  const email = address(limit + 3);
  const again = await invite(inviting, inviter.cookie, email);
  expect(again.status).toBe(200);
  expect(again.body).toEqual({
    success: true,
    invitation: { id: expect.any(String), email, role: 'member', status: 'pending', expiresAt: expect.any(String) },
  });
  expect(again.headers['ratelimit-remaining']).toBe(String(limit - 1));
  expect(await quota(inviting, inviter.cookie)).toMatchObject({ status: 200, body: { limit, remaining: limit - 1 } });
  // The refused ones stored nothing.
  const rows = await inviting.dataSource.getRepository(InvitationEntity).findBy({ tenantId: inviter.tenant.id });
  expect(rows.map((row) => [row.email, row.status]).sort()).toEqual(
    [...Array.from({ length: limit }, (_, i) => address(i + 1)), email].map((stored) => [stored, 'pending']).sort(),
  );
}

describe('test mode off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['get', '/api/test/mailbox?to=a@example.com'],
    ['post', '/api/test/sessions'],
    ['post', '/api/test/clock'],
    ['delete', '/api/test/rate-limits'],
    ['delete', '/api/test/tenants?namePrefix=qa-'],
  ] as const)('%s %s does not exist: 404, as any unknown route, even with the key', async (method, path) => {
    const res = await invalidRequest(t.http[method](path).set('X-Test-Mode-Key', KEY));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Cannot ${method.toUpperCase()} ${path}` });
  });

  it('the served OpenAPI document lists no test route', async () => {
    const { paths } = (await t.http.get('/api/openapi.json')).body;
    expect(Object.keys(paths).filter((path) => path.startsWith('/api/test/'))).toEqual([]);
  });
});

describe('test mode on (TEST_MODE=true)', () => {
  let database: TestDatabase;
  let t: TestApp;
  let second: TestApp;
  let factory: ReturnType<typeof factories>;
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    // Every log line of both instances, at info: the key must be in none of them.
    process.stdout.write = ((chunk: string | Uint8Array) => written.push(chunk.toString()) > 0) as typeof write;
    database = await createTestDatabase();
    const env = { ...TEST_MODE_ENV, LOG_LEVEL: 'info', INVITE_RATE_LIMIT: '2' };
    t = await createTestApp({ database, env });
    second = await createTestApp({ database, identityOf: database, env });
    factory = factories(t);
  });
  afterAll(async () => {
    await t.close();
    await second.close();
    await database.drop();
    process.stdout.write = write;
  });
  afterEach(() => t.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ reset: true }));

  it('the served OpenAPI document lists the test routes, with the key header', async () => {
    const { paths } = (await t.http.get('/api/openapi.json')).body;
    expect(Object.keys(paths).filter((path) => path.startsWith('/api/test/'))).toEqual([
      '/api/test/mailbox',
      '/api/test/sessions',
      '/api/test/clock',
      '/api/test/rate-limits',
      '/api/test/tenants',
      '/api/test/setup-links/{id}',
    ]);
    expect(paths['/api/test/clock'].post.parameters).toContainEqual(
      expect.objectContaining({ name: 'X-Test-Mode-Key', in: 'header', required: true }),
    );
  });

  describe('the key', () => {
    it.each([
      ['no header', undefined],
      ['a wrong key of the same length', KEY.replace(/.$/, 'x')],
      ['a wrong key of another length', 'short'],
    ])('%s → 401 Unauthorized, and nothing is done', async (_, key) => {
      const request = invalidRequest(t.http.delete('/api/test/rate-limits'));
      const res = await (key === undefined ? request : request.set('X-Test-Mode-Key', key));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized' });
    });

    it('appears in no log line of either instance', async () => {
      await mailbox(second, 'nobody@example.com');
      const output = written.join('');
      expect(output).toContain('/api/test/mailbox'); // the request lines were logged
      expect(output).not.toContain(KEY);
    });
  });

  describe('GET /api/test/mailbox', () => {
    it('the e-mails to an address, newest first, with subject, text, link, token and sentAt; event test.mailbox_read', async () => {
      const inviter = await newInviter(t, { name: 'Mailbox Co' });
      const to = `mailbox-${Date.now()}@example.com`;
      expect((await invite(t, inviter.cookie, to)).status).toBe(200);
      const res = await mailbox(t, to.toUpperCase());
      expect(res.status).toBe(200);
      expect(res.body.emails).toHaveLength(1);
      const [email] = res.body.emails;
      expect(email).toEqual({
        subject: 'You are invited to join Mailbox Co',
        text: expect.stringContaining(email.link),
        link: expect.stringMatching(/\/invitations\/[^/]+$/),
        token: expect.any(String),
        sentAt: email.sentAt === null ? null : expect.any(String),
      });
      expect(email.link.endsWith(`/invitations/${encodeURIComponent(email.token)}`)).toBe(true);
      expect((await t.http.get(`/api/invitations/${email.token}`)).body.valid).toBe(true);
      const [event] = (await eventsOf(t, 'test.mailbox_read')).filter((row) => row.targetEmail === to.toUpperCase());
      expect(event).toMatchObject({ targetType: 'invitation', actorId: null, tenantId: null });
      expect(JSON.parse(event.data)).toEqual({ emails: 1 });
    });

    it('reads the outbox: an e-mail created on one instance is in the mailbox of the other', async () => {
      const inviter = await newInviter(t);
      const to = `two-instances-${Date.now()}@example.com`;
      await invite(t, inviter.cookie, to);
      await invite(t, inviter.cookie, `other-${to}`);
      const res = await mailbox(second, to);
      expect(res.body.emails.map((email: { text: string }) => email.text.includes('join'))).toEqual([true]);
    });

    it('an address that is not one → 400', async () => {
      const res = await mailbox(t, 'not an address');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'to must be an e-mail address' });
    });
  });

  describe('POST /api/test/sessions', () => {
    // Each identity store's answer, registered in its own projects only (a full run skips nothing).
    if (e2eIdentityMode() === 'local') {
      it('for a user by id: the token and cookie sign the user in; event test.session_issued', async () => {
        const inviter = await newInviter(t);
        const res = await t.http
          .post('/api/test/sessions')
          .set('X-Test-Mode-Key', KEY)
          .send({ userId: inviter.user.id });
        expect(res.status).toBe(200);
        expect(res.body.cookie).toBe(`id_token=${res.body.token}; Path=/; HttpOnly; SameSite=Lax`);
        const members = await t.http.get('/api/org/members').set('Cookie', `id_token=${res.body.token}`);
        expect(members.status).toBe(200);
        const [event] = (await eventsOf(t, 'test.session_issued')).filter((row) => row.targetId === inviter.user.id);
        expect(event).toMatchObject({ targetType: 'user', tenantId: inviter.tenant.id });
      });

      it('for claims of a user the store need not hold (sub and email)', async () => {
        const res = await t.http
          .post('/api/test/sessions')
          .set('X-Test-Mode-Key', KEY)
          .send({ sub: 'qa-sub-1', email: 'qa-sub-1@example.com' });
        expect(res.status).toBe(200);
        const people = await t.http.get('/api/org/members').set('Cookie', `id_token=${res.body.token}`);
        expect(people.status).toBe(403); // signed in, but in no organisation
      });

      it('neither userId nor sub and email → 400; an unknown userId → 404', async () => {
        const empty = await t.http.post('/api/test/sessions').set('X-Test-Mode-Key', KEY).send({ sub: 'only-sub' });
        expect(empty.status).toBe(400);
        expect(empty.body).toEqual({ error: 'Give userId, or sub and email' });
        const unknown = await t.http.post('/api/test/sessions').set('X-Test-Mode-Key', KEY).send({ userId: 'nobody' });
        expect(unknown.status).toBe(404);
      });
    } else {
      it('cognito mode → 400', async () => {
        const res = await t.http.post('/api/test/sessions').set('X-Test-Mode-Key', KEY).send({ userId: 'anyone' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Test sessions are issued only with IDENTITY_STORE=local' });
      });
    }
  });

  describe('POST /api/test/clock', () => {
    it('an invitation expires once the clock is moved past its 7 days; reset gives the real time back; test.clock_moved', async () => {
      const inviter = await newInviter(t);
      const to = `clock-${Date.now()}@example.com`;
      await invite(t, inviter.cookie, to);
      const [{ token }] = (await mailbox(t, to)).body.emails;
      const clock = (body: object) => t.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send(body);

      const almost = await clock({ advanceSeconds: SEVEN_DAYS_SECONDS - 60 });
      expect(almost.status).toBe(200);
      expect(almost.body.offsetSeconds).toBe(SEVEN_DAYS_SECONDS - 60);
      expect((await t.http.get(`/api/invitations/${token}`)).body.valid).toBe(true);
      const past = await clock({ advanceSeconds: 61 });
      expect(past.body.offsetSeconds).toBe(SEVEN_DAYS_SECONDS + 1);
      expect(Date.parse(past.body.now) - Date.now()).toBeGreaterThan((SEVEN_DAYS_SECONDS - 10) * 1000);
      const res = await t.http.get(`/api/invitations/${token}`);
      expect(res.body).toEqual(INVITATION_GET.expired);

      const reset = await clock({ reset: true });
      expect(reset.body.offsetSeconds).toBe(0);
      expect(Math.abs(Date.parse(reset.body.now) - Date.now())).toBeLessThan(10_000);
      const moves = (await eventsOf(t, 'test.clock_moved')).map((row) => JSON.parse(row.data).offsetSeconds);
      // Each event is dated by the clock it moved: the order of occurredAt is not the order of the calls.
      expect(moves).toEqual(expect.arrayContaining([SEVEN_DAYS_SECONDS - 60, SEVEN_DAYS_SECONDS + 1, 0]));
    });

    it("moves the invitation limit's windows: 429 after half, Retry-After and quota moved with it; invites after the other half", () =>
      expectWindowsMovedWithTheClock(t, t, 2));

    it('a reset leaves the windows where they are: a caller refused stays refused', async () => {
      const inviter = await newInviter(t);
      const address = (n: number) => `reset-${n}-${inviter.user.id}@example.com`;
      for (const n of [1, 2]) expect((await invite(t, inviter.cookie, address(n))).status).toBe(200);
      await moveClock(t, WINDOW_SECONDS / 2);
      expect((await invite(t, inviter.cookie, address(3))).status).toBe(429);
      await t.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ reset: true });
      const refused = await invite(t, inviter.cookie, address(4));
      expect([refused.status, refused.body]).toEqual([429, INVITE_ERRORS.rateLimited]);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(WINDOW_SECONDS - 5);
      expect(await t.dataSource.getRepository(InvitationEntity).countBy({ tenantId: inviter.tenant.id })).toBe(2);
    });

    it('neither or both of advanceSeconds and reset → 400', async () => {
      for (const body of [{}, { advanceSeconds: 5, reset: true }, { advanceSeconds: -5 }, { advanceSeconds: 1.5 }]) {
        const res = await invalidRequest(() => t.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send(body));
        expect(res.status).toBe(400);
      }
    });
  });

  describe('DELETE /api/test/rate-limits', () => {
    it('empties the invitation counters: a caller refused 429 may invite again; event test.rate_limits_cleared', async () => {
      const inviter = await newInviter(t);
      const sent = [];
      for (const n of [1, 2, 3])
        sent.push((await invite(t, inviter.cookie, `limit-${n}-${Date.now()}@example.com`)).status);
      expect(sent).toEqual([200, 200, 429]);
      const res = await t.http.delete('/api/test/rate-limits').set('X-Test-Mode-Key', KEY);
      expect(res.status).toBe(204);
      expect((await invite(t, inviter.cookie, `limit-4-${Date.now()}@example.com`)).status).toBe(200);
      expect(await eventsOf(t, 'test.rate_limits_cleared')).not.toHaveLength(0);
    });
  });

  describe('DELETE /api/test/tenants', () => {
    it('removes the tenants named with the prefix, their invitations, e-mails, events; detaches members; tenants_removed', async () => {
      const prefix = `qa-run-${Date.now()}-`;
      const first = await newInviter(t, { name: `${prefix}a` });
      const secondTenant = await factory.tenant({ name: `${prefix}b` });
      const kept = await newInviter(t, { name: `QA-RUN-other-${prefix}` });
      await invite(t, first.cookie, `cleanup-${Date.now()}@example.com`);
      await invite(t, kept.cookie, `kept-${Date.now()}@example.com`);
      const removedIds = [first.tenant.id, secondTenant.id];

      const res = await t.http.delete('/api/test/tenants').query({ namePrefix: prefix }).set('X-Test-Mode-Key', KEY);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ removed: 2 });

      const tenants = t.dataSource.getRepository(TenantEntity);
      expect(await tenants.findBy(removedIds.map((id) => ({ id })))).toEqual([]);
      expect(await tenants.findOneBy({ id: kept.tenant.id })).not.toBeNull();
      const invitations = t.dataSource.getRepository(InvitationEntity);
      expect(await invitations.findBy({ tenantId: first.tenant.id })).toEqual([]);
      expect(await invitations.findBy({ tenantId: kept.tenant.id })).toHaveLength(1);
      const outbox = await t.dataSource.getRepository(InvitationEmailOutboxEntity).find();
      expect(outbox.filter((row) => row.payload.includes(first.tenant.id))).toEqual([]);
      expect(await t.dataSource.getRepository(AuditEventEntity).findBy({ tenantId: first.tenant.id })).toEqual([]);
      expect(await t.identity.findById(first.user.id)).toMatchObject({ tenantId: null, role: null });
      const [event] = (await eventsOf(t, 'test.tenants_removed')).filter((row) => row.data.includes(prefix));
      expect(JSON.parse(event.data)).toEqual({ namePrefix: prefix, tenants: 2 });
    });

    it('no namePrefix → 400', async () => {
      const res = await invalidRequest(() => t.http.delete('/api/test/tenants').set('X-Test-Mode-Key', KEY));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'namePrefix must be 1 to 255 characters' });
    });
  });
});

describeWithRedis('the clock of test mode on two instances sharing one Redis (needs TEST_REDIS_URL)', () => {
  const {
    first,
    second,
    database,
    redisPrefix: prefix,
  } = useTwoInstances(() => ({ env: { ...TEST_MODE_ENV, INVITE_RATE_LIMIT: '1' }, redis: true }));

  it('moved on one, it moves on the other: an invitation read there is expired', async () => {
    const inviter = await newInviter(first);
    const to = `shared-clock-${Date.now()}@example.com`;
    await invite(first, inviter.cookie, to);
    const [{ token }] = (await mailbox(second, to)).body.emails;
    await first.http
      .post('/api/test/clock')
      .set('X-Test-Mode-Key', KEY)
      .send({ advanceSeconds: SEVEN_DAYS_SECONDS + 1 });
    await eventually(async () =>
      expect((await second.http.get(`/api/invitations/${token}`)).body).toEqual(INVITATION_GET.expired),
    );
    await second.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ reset: true });
    await eventually(async () =>
      expect(Math.abs(first.app.get(Clock).now().getTime() - Date.now())).toBeLessThan(1_000),
    );
  });

  afterEach(() => first.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ reset: true }));

  it("moved on one, the limit's windows in Redis move for both: 429 on the other after half the window, an invite after the whole", () =>
    expectWindowsMovedWithTheClock(first, second, 1));

  it('DELETE /api/test/rate-limits on one empties the counters in Redis that both count in', async () => {
    const inviter = await newInviter(first);
    expect((await invite(first, inviter.cookie, `r1-${Date.now()}@example.com`)).status).toBe(200);
    expect((await invite(second, inviter.cookie, `r2-${Date.now()}@example.com`)).status).toBe(429);
    expect((await first.http.delete('/api/test/rate-limits').set('X-Test-Mode-Key', KEY)).status).toBe(204);
    expect((await invite(second, inviter.cookie, `r3-${Date.now()}@example.com`)).status).toBe(200);
  });

  it('an instance started later takes the offset from Redis', async () => {
    await first.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ advanceSeconds: 3600 });
    const third = await createTestApp({
      database,
      identityOf: database,
      env: { ...TEST_MODE_ENV, REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix },
    });
    try {
      expect(third.app.get(Clock).offset).toBe(3_600_000);
    } finally {
      await first.http.post('/api/test/clock').set('X-Test-Mode-Key', KEY).send({ reset: true });
      await third.close();
    }
  });
});

describe('start-up', () => {
  it('refuses TEST_MODE=true with NODE_ENV=production: one line, exit 1', () => {
    const [program, ...args] = builtCommand(['node', 'dist/src/main.js']);
    const result = spawnSync(program, args, {
      cwd: ROOT,
      env: serviceEnv({
        ...TEST_MODE_ENV,
        NODE_ENV: 'production',
        AUTH_JWT_SECRET: TEST_JWT_SECRET,
        DATABASE_URL: 'sqlite::memory:',
      }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('Invalid configuration: TEST_MODE must not be true when NODE_ENV=production\n');
    expect(result.stdout).toBe('');
  });
});

import { Response } from 'supertest';
import { InvitationEntity } from '../src/database/entities';
import { factories, sessionCookie } from './support/factories';
import { Inviter, newInviter } from './support/inviting';
import { INVITE_ERRORS, ISO_8601, ORG_INVITATION_ERRORS, UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { useTwoInstances } from './support/suites';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { describeWithRedis } from './support/test-redis';

const LIMIT = 3;
const WINDOW_SECONDS = 3600;
const env = { INVITE_RATE_LIMIT: String(LIMIT), INVITE_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS) };

const invite = (app: TestApp, cookie: string, email: string) =>
  app.http.post('/api/org/invite').set('Cookie', cookie).send({ email, role: 'member' });
const resend = (app: TestApp, cookie: string, id: string) =>
  app.http.post(`/api/org/invitations/${id}/resend`).set('Cookie', cookie);
const quota = (app: TestApp, cookie?: string) => {
  const request = app.http.get('/api/org/invite/quota');
  return cookie ? request.set('Cookie', cookie) : request;
};

/** The IETF RateLimit fields of an answer, as numbers (NaN when absent). */
const rateLimitOf = (res: Response) => ({
  limit: Number(res.headers['ratelimit-limit']),
  remaining: Number(res.headers['ratelimit-remaining']),
  reset: Number(res.headers['ratelimit-reset']),
});

/** Asserts `resetAt` is `seconds` from now, give or take the test's own duration. */
const expectResetIn = (resetAt: string, seconds: number) => {
  expect(resetAt).toMatch(ISO_8601);
  const inSeconds = (new Date(resetAt).getTime() - Date.now()) / 1_000;
  expect(inSeconds).toBeGreaterThan(seconds - 5);
  expect(inSeconds).toBeLessThanOrEqual(seconds + 1);
};

describe('POST /api/org/invite and POST /api/org/invitations/{id}/resend: the RateLimit header fields', () => {
  let t: TestApp;
  let me: Inviter;
  beforeAll(async () => {
    t = await createTestApp({ env });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    me = await newInviter(t);
  });

  it('each success carries RateLimit-Limit, a RateLimit-Remaining shared by invite and resend, RateLimit-Reset in seconds', async () => {
    const first = await invite(t, me.cookie, 'one@example.com');
    expect(first.status).toBe(200);
    const second = await resend(t, me.cookie, first.body.invitation.id);
    expect(second.status).toBe(200);
    const third = await invite(t, me.cookie, 'two@example.com');
    expect(third.status).toBe(200);

    expect([first, second, third].map((res) => rateLimitOf(res).limit)).toEqual([LIMIT, LIMIT, LIMIT]);
    expect([first, second, third].map((res) => rateLimitOf(res).remaining)).toEqual([2, 1, 0]);
    for (const res of [first, second, third]) {
      expect(rateLimitOf(res).reset).toBeGreaterThan(WINDOW_SECONDS - 5);
      expect(rateLimitOf(res).reset).toBeLessThanOrEqual(WINDOW_SECONDS);
      expect(res.headers['retry-after']).toBeUndefined();
      // One set of names: the framework's X-RateLimit-* are not sent.
      expect(Object.keys(res.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
    }
    expect(await t.dataSource.getRepository(InvitationEntity).countBy({ tenantId: me.tenant.id })).toBe(3);
  });

  it("past the limit: spec 4.9's 429 and body, Retry-After, RateLimit-Remaining 0, RateLimit-Reset = Retry-After; no row", async () => {
    for (let i = 0; i < LIMIT; i++) expect((await invite(t, me.cookie, `ok-${i}@example.com`)).status).toBe(200);
    const refusals = [
      await invite(t, me.cookie, 'over@example.com'),
      await resend(t, me.cookie, (await factories(t).invitation({ tenantId: me.tenant.id })).id),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual(INVITE_ERRORS.rateLimited);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(WINDOW_SECONDS - 5);
      expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
      expect(rateLimitOf(res)).toEqual({ limit: LIMIT, remaining: 0, reset: retryAfter });
    }
    expect(
      await t.dataSource.getRepository(InvitationEntity).countBy({ tenantId: me.tenant.id, status: 'pending' }),
    ).toBe(LIMIT + 1);
  });

  it('a refusal after the limiter (already a member: 400) carries the fields; those before it (body, session, role) do not', async () => {
    const existing = await factories(t).member(me.tenant.id, { role: 'member' });
    const duplicate = await invite(t, me.cookie, existing.email);
    expect([duplicate.status, duplicate.body]).toEqual([400, INVITE_ERRORS.alreadyMember]);
    expect(rateLimitOf(duplicate)).toMatchObject({ limit: LIMIT, remaining: 2 });

    const before = [
      await invite(t, me.cookie, 'not-an-address'),
      await t.http.post('/api/org/invite').send({ email: 'a@example.com', role: 'member' }),
      await invite(t, await sessionCookie(t, existing), 'b@example.com'),
    ];
    expect(before.map((res) => res.status)).toEqual([400, 401, 403]);
    for (const res of before) expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('GET /api/org/invite/quota', () => {
  let database: TestDatabase;
  let t: TestApp;
  let me: Inviter;
  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ database, env });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });
  beforeEach(async () => {
    me = await newInviter(t);
  });

  it('before any invitation: 200 {limit, remaining: limit, resetAt: null}', async () => {
    const res = await quota(t, me.cookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ limit: LIMIT, remaining: LIMIT, resetAt: null });
  });

  it('counts nothing: read many times, the caller still sends `limit` invitations', async () => {
    for (let i = 0; i < 5; i++)
      expect((await quota(t, me.cookie)).body).toEqual({ limit: LIMIT, remaining: LIMIT, resetAt: null });
    const statuses = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push((await invite(t, me.cookie, `n-${i}@example.com`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('agrees with what the invitations saw and what the next one will see: remaining and the end of the window', async () => {
    const sent = await invite(t, me.cookie, 'first@example.com');
    const after = await quota(t, me.cookie);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({
      limit: LIMIT,
      remaining: rateLimitOf(sent).remaining,
      resetAt: expect.stringMatching(ISO_8601),
    });
    expectResetIn(after.body.resetAt, rateLimitOf(sent).reset);

    const next = await resend(t, me.cookie, sent.body.invitation.id);
    expect(rateLimitOf(next).remaining).toBe(after.body.remaining - 1);
    expect((await quota(t, me.cookie)).body).toEqual({
      limit: LIMIT,
      remaining: LIMIT - 2,
      resetAt: after.body.resetAt,
    });
  });

  it('at the limit remaining is 0 and the next invite is 429; once refused, resetAt is when Retry-After ends', async () => {
    for (let i = 0; i < LIMIT; i++) await invite(t, me.cookie, `full-${i}@example.com`);
    expect((await quota(t, me.cookie)).body).toMatchObject({ limit: LIMIT, remaining: 0 });
    const refused = await invite(t, me.cookie, 'over@example.com');
    expect(refused.status).toBe(429);
    const res = await quota(t, me.cookie);
    expect(res.body).toEqual({ limit: LIMIT, remaining: 0, resetAt: expect.any(String) });
    expectResetIn(res.body.resetAt, Number(refused.headers['retry-after']));
  });

  it('is per caller: another owner of the tenant has a whole quota', async () => {
    await invite(t, me.cookie, 'mine@example.com');
    const colleague = await factories(t).member(me.tenant.id, { role: 'admin' });
    expect((await quota(t, await sessionCookie(t, colleague))).body).toEqual({
      limit: LIMIT,
      remaining: LIMIT,
      resetAt: null,
    });
  });

  it('403 "Only owner or admin can manage invitations" for a member, "Only organisation users can access this" outside; 401', async () => {
    const anonymous = await quota(t);
    expect([anonymous.status, anonymous.body]).toEqual([401, UNAUTHORIZED]);
    const member = await quota(t, await sessionCookie(t, await factories(t).member(me.tenant.id, { role: 'member' })));
    expect([member.status, member.body]).toEqual([403, ORG_INVITATION_ERRORS.notOwnerOrAdmin]);
    const outsider = await quota(t, await sessionCookie(t, await factories(t).user()));
    expect([outsider.status, outsider.body]).toEqual([403, ORG_INVITATION_ERRORS.notOrgUser]);
  });

  it("with Redis unreachable, reads this instance's memory counters, as the invite counts then", async () => {
    const app = await createTestApp({ identityOf: database, env: { ...env, REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const inviter = await newInviter(app);
      await invite(app, inviter.cookie, 'fallback@example.com');
      expect((await quota(app, inviter.cookie)).body).toEqual({
        limit: LIMIT,
        remaining: LIMIT - 1,
        resetAt: expect.stringMatching(ISO_8601),
      });
    } finally {
      await app.close();
    }
  });

  describeWithRedis('two instances on one Redis (needs TEST_REDIS_URL)', () => {
    const { first, second } = useTwoInstances(() => ({ env, redis: true, identityOf: database }));

    it('both answer the same quota, spent on either; reads count nothing on either; the limit holds across them', async () => {
      const inviter = await newInviter(first);
      expect((await quota(second, inviter.cookie)).body).toEqual({ limit: LIMIT, remaining: LIMIT, resetAt: null });
      const sent = await invite(first, inviter.cookie, 'a@example.com');
      expect(rateLimitOf(sent).remaining).toBe(LIMIT - 1);
      const [onFirst, onSecond] = [await quota(first, inviter.cookie), await quota(second, inviter.cookie)];
      expect(onSecond.body).toEqual({ limit: LIMIT, remaining: LIMIT - 1, resetAt: expect.stringMatching(ISO_8601) });
      expect(onFirst.body).toEqual({ ...onSecond.body, resetAt: expect.stringMatching(ISO_8601) });
      expectResetIn(onFirst.body.resetAt, rateLimitOf(sent).reset);
      expectResetIn(onSecond.body.resetAt, rateLimitOf(sent).reset);

      const more = [
        await invite(second, inviter.cookie, 'b@example.com'),
        await invite(first, inviter.cookie, 'c@example.com'),
      ];
      expect(more.map((res) => [res.status, rateLimitOf(res).remaining])).toEqual([
        [200, 1],
        [200, 0],
      ]);
      expect((await quota(second, inviter.cookie)).body).toMatchObject({ remaining: 0 });
      const refused = await invite(second, inviter.cookie, 'd@example.com');
      expect(refused.status).toBe(429);
      expectResetIn((await quota(first, inviter.cookie)).body.resetAt, Number(refused.headers['retry-after']));
    });
  });
});

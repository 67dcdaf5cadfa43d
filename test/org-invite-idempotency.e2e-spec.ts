import { InterceptorsConsumer } from '@nestjs/core/interceptors/interceptors-consumer';
import { In } from 'typeorm';
import { IdempotencyKeyEntity, InvitationEmailOutboxEntity, InvitationEntity } from '../src/database/entities';
import { IdempotencyKeyPurge } from '../src/idempotency/idempotency-key-purge';
import { requestFingerprint } from '../src/idempotency/request-fingerprint';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { eventually } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { Inviter, newInviter } from './support/inviting';
import { INVITE_ERRORS, ORG_INVITATION_ERRORS, UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TEST_REDIS_URL, deleteRedisKeys, describeWithRedis, testRedisPrefix } from './support/test-redis';
import { invalidRequest } from './support/documented-http';

const LIMIT = 5;
const HOUR_MS = 3600 * 1000;
const IDEMPOTENCY = {
  invalidKey: { error: 'Invalid Idempotency-Key. Must be 1 to 255 printable ASCII characters' },
  reusedKey: { error: 'Idempotency-Key reused with a different request' },
  inProgress: { error: 'A request with this Idempotency-Key is still in progress' },
};

let keySequence = 0;
const newKey = () => `retry-${Date.now()}-${keySequence++}`;

const invite = (app: TestApp, cookie: string, body: object, key?: string | string[]) => {
  const request = app.http.post('/api/org/invite').set('Cookie', cookie);
  // An array goes out as one header line per value; superagent's types allow that for Cookie only.
  if (key !== undefined) request.set('Idempotency-Key', key as string);
  return request.send(body);
};
const resend = (app: TestApp, cookie: string, id: string, key?: string) => {
  const request = app.http.post(`/api/org/invitations/${id}/resend`).set('Cookie', cookie);
  return key === undefined ? request : request.set('Idempotency-Key', key);
};
const quotaLeft = async (app: TestApp, cookie: string) =>
  (await app.http.get('/api/org/invite/quota').set('Cookie', cookie)).body.remaining;

const invitationsOf = (app: TestApp, tenantId: string) =>
  app.dataSource.getRepository(InvitationEntity).find({ where: { tenantId }, order: { createdAt: 'ASC' } });
const outboxOf = async (app: TestApp, invitations: InvitationEntity[]) =>
  app.dataSource
    .getRepository(InvitationEmailOutboxEntity)
    .findBy({ invitationId: In(invitations.map((row) => row.id)) });
const keysOf = (app: TestApp, callerId: string) =>
  app.dataSource.getRepository(IdempotencyKeyEntity).findBy({ callerId });

describe('POST /api/org/invite with an Idempotency-Key', () => {
  let database: TestDatabase;
  let t: TestApp;
  let me: Inviter;
  const body = { email: 'carol@example.com', role: 'member' };

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ database, env: { INVITE_RATE_LIMIT: String(LIMIT) } });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });
  beforeEach(async () => {
    me = await newInviter(t);
  });
  afterEach(() => jest.restoreAllMocks());

  it('same key, caller and body replay the first answer, Idempotent-Replayed: true: one invitation, one e-mail, one unit', async () => {
    const key = newKey();
    const first = await invite(t, me.cookie, body, key);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));

    // Key order does not make another request: the body is compared in canonical form.
    const again = await invite(t, me.cookie, { role: 'member', email: 'carol@example.com' }, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['ratelimit-remaining']).toBeUndefined(); // it reached no limiter

    const rows = await invitationsOf(t, me.tenant.id);
    expect(rows.map((row) => row.id)).toEqual([first.body.invitation.id]);
    expect(await outboxOf(t, rows)).toHaveLength(1);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT - 1);
    expect(await keysOf(t, me.user.id)).toEqual([
      expect.objectContaining({
        key,
        responseStatus: 200,
        responseBody: JSON.stringify(first.body),
        claimId: null,
        claimedUntil: null,
      }),
    ]);
  });

  it('a stored refusal is replayed too: "already a member" 400, counted once', async () => {
    const existing = await factories(t).member(me.tenant.id, { role: 'member' });
    const key = newKey();
    const answers = [
      await invite(t, me.cookie, { email: existing.email, role: 'admin' }, key),
      await invite(t, me.cookie, { email: existing.email, role: 'admin' }, key),
    ];
    expect(answers.map((res) => [res.status, res.body, res.headers['idempotent-replayed']])).toEqual([
      [400, INVITE_ERRORS.alreadyMember, undefined],
      [400, INVITE_ERRORS.alreadyMember, 'true'],
    ]);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT - 1);
    expect(await invitationsOf(t, me.tenant.id)).toEqual([]);
  });

  it('the same key with another body: 422 "Idempotency-Key reused with a different request"; nothing stored, no quota spent', async () => {
    const key = newKey();
    const first = await invite(t, me.cookie, body, key);
    const other = await invite(t, me.cookie, { ...body, role: 'admin' }, key);
    expect([other.status, other.body]).toEqual([422, IDEMPOTENCY.reusedKey]);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect((await invitationsOf(t, me.tenant.id)).map((row) => row.id)).toEqual([first.body.invitation.id]);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT - 1);
  });

  it("another caller's same key is its own: its request runs", async () => {
    const key = newKey();
    const colleague = await factories(t).member(me.tenant.id, { role: 'admin' });
    const mine = await invite(t, me.cookie, body, key);
    const theirs = await invite(t, await sessionCookie(t, colleague), body, key);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.invitation.id).not.toBe(mine.body.invitation.id);
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(2);
  });

  it('parallel requests with one key create exactly one invitation and one e-mail; the others replay its answer', async () => {
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 6 }, () => invite(t, me.cookie, body, key)));
    expect(answers.map((res) => res.status)).toEqual(Array(6).fill(200));
    const rows = await invitationsOf(t, me.tenant.id);
    expect(rows).toHaveLength(1);
    for (const res of answers)
      expect(res.body).toEqual({ success: true, invitation: expect.objectContaining({ id: rows[0].id }) });
    expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect(await outboxOf(t, rows)).toHaveLength(1);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT - 1);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
    ['a control character', 'a\tb'],
    ['sent twice', ['one', 'two']],
  ])('a key that is %s is 400 "Invalid Idempotency-Key…": nothing stored, no quota spent', async (_, key) => {
    const res = await invalidRequest(() => invite(t, me.cookie, body, key));
    expect([res.status, res.body]).toEqual([400, IDEMPOTENCY.invalidKey]);
    expect(await invitationsOf(t, me.tenant.id)).toEqual([]);
    expect(await keysOf(t, me.user.id)).toEqual([]);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT);
  });

  // What a client sends when the command that made its key printed nothing (curl itself leaves such a header out).
  it('a key of spaces only is present but empty: 400 "Invalid Idempotency-Key…", nothing stored or sent, no quota spent', async () => {
    const res = await invite(t, me.cookie, body, '   ');
    expect([res.status, res.body]).toEqual([400, IDEMPOTENCY.invalidKey]);
    expect(await invitationsOf(t, me.tenant.id)).toEqual([]);
    expect(await keysOf(t, me.user.id)).toEqual([]);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT);
  });

  it('255 printable characters, spaces and punctuation inside, make a valid key', async () => {
    const key = `a b!{}"~${'x'.repeat(247)}`;
    expect(key).toHaveLength(255);
    const res = await invite(t, me.cookie, body, key);
    expect(res.status).toBe(200);
    expect(await keysOf(t, me.user.id)).toEqual([expect.objectContaining({ key, responseStatus: 200 })]);
  });

  it("the key is checked after the spec's rules 1–6: a bad body, no session or a member get the spec's answers", async () => {
    const member = await factories(t).member(me.tenant.id, { role: 'member' });
    const memberCookie = await sessionCookie(t, member);
    const answers = await invalidRequest(() =>
      Promise.all([
        invite(t, me.cookie, { email: '', role: 'member' }, ''),
        t.http.post('/api/org/invite').set('Idempotency-Key', '').send(body),
        invite(t, memberCookie, body, ''),
      ]),
    );
    expect(answers.map((res) => [res.status, res.body])).toEqual([
      [400, INVITE_ERRORS.emailRequired],
      [401, UNAUTHORIZED],
      [403, INVITE_ERRORS.notOwnerOrAdmin],
    ]);
  });

  it('without the header nothing changes: two identical invites make two invitations, and no key is stored', async () => {
    const answers = [await invite(t, me.cookie, body), await invite(t, me.cookie, body)];
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    expect(answers[1].body.invitation.id).not.toBe(answers[0].body.invitation.id);
    expect(answers[1].headers['idempotent-replayed']).toBeUndefined();
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(2);
    expect(await keysOf(t, me.user.id)).toEqual([]);
  });

  it('no header, no cost beyond reading it: no interceptor on the invite, resend or bulk routes; handlers run without rxjs', async () => {
    const intercept = jest.spyOn(InterceptorsConsumer.prototype, 'intercept');
    const old = await factories(t).invitation({ tenantId: me.tenant.id });
    const answers = [
      await invite(t, me.cookie, body),
      await resend(t, me.cookie, old.id),
      await t.http
        .post('/api/org/invitations/bulk')
        .set('Cookie', me.cookie)
        .send({ invitations: [{ email: 'bulk@example.com', role: 'member' }] }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(intercept.mock.calls.map(([interceptors]) => interceptors)).toEqual([[], [], []]);
  });

  it('a 429 is not stored: the key is released, and a retry with it is refused by the limit again, not replayed', async () => {
    for (let i = 0; i < LIMIT; i++)
      expect((await invite(t, me.cookie, { email: `n${i}@example.com`, role: 'member' })).status).toBe(200);
    const key = newKey();
    const limited = await invite(t, me.cookie, body, key);
    expect([limited.status, limited.body]).toEqual([429, INVITE_ERRORS.rateLimited]);
    await expectNoKeyEventually(me.user.id);
    const retry = await invite(t, me.cookie, body, key);
    expect([retry.status, retry.headers['idempotent-replayed']]).toEqual([429, undefined]);
  });

  it('a 500 is not stored: the key is released, and the retry runs the request', async () => {
    jest.spyOn(t.app.get(InvitationsStore), 'create').mockRejectedValueOnce(new Error('database down'));
    const key = newKey();
    const failed = await invite(t, me.cookie, body, key);
    expect([failed.status, failed.body]).toEqual([500, INVITE_ERRORS.createFailed]);
    expect(await keysOf(t, me.user.id)).toEqual([]);
    const retry = await invite(t, me.cookie, body, key);
    expect([retry.status, retry.headers['idempotent-replayed']]).toEqual([200, undefined]);
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(1);
  });

  it('while the first request works, a retry waits, then 409 "…still in progress"; a lapsed claim (request died) is taken', async () => {
    const key = newKey();
    const hash = requestFingerprint('POST', '/api/org/invite', body);
    const claim = {
      callerId: me.user.id,
      key,
      requestHash: hash,
      claimId: 'a-working-request',
      responseStatus: null,
      responseBody: null,
      createdAt: new Date(),
    };
    const keys = t.dataSource.getRepository(IdempotencyKeyEntity);
    await keys.insert({ ...claim, claimedUntil: new Date(Date.now() + HOUR_MS) });
    const started = Date.now();
    const busy = await invite(t, me.cookie, body, key);
    expect([busy.status, busy.body]).toEqual([409, IDEMPOTENCY.inProgress]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(await invitationsOf(t, me.tenant.id)).toEqual([]);

    await keys.update({ callerId: me.user.id, key }, { claimedUntil: new Date(Date.now() - 1_000) });
    const takenOver = await invite(t, me.cookie, body, key);
    expect(takenOver.status).toBe(200);
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(1);
    expect(await keysOf(t, me.user.id)).toEqual([expect.objectContaining({ responseStatus: 200, claimId: null })]);
  });

  it('a key older than 24 hours is not replayed: the request runs again', async () => {
    const key = newKey();
    const first = await invite(t, me.cookie, body, key);
    await t.dataSource
      .getRepository(IdempotencyKeyEntity)
      .update({ callerId: me.user.id, key }, { createdAt: new Date(Date.now() - 25 * HOUR_MS) });
    const later = await invite(t, me.cookie, body, key);
    expect([later.status, later.headers['idempotent-replayed']]).toEqual([200, undefined]);
    expect(later.body.invitation.id).not.toBe(first.body.invitation.id);
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(2);
  });

  const expectNoKeyEventually = async (callerId: string) => {
    for (let i = 0; i < 50 && (await keysOf(t, callerId)).length; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await keysOf(t, callerId)).toEqual([]);
  };
});

describe('POST /api/org/invite with an Idempotency-Key, answered by the request timeout', () => {
  const TIMEOUT_MS = 1_000;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it('work that ends after the 503 "Request timed out" stores its answer, and the retry replays it', async () => {
    const me = await newInviter(t);
    const store = t.app.get(InvitationsStore);
    const create = store.create.bind(store);
    let finishWork!: () => void;
    const workMayFinish = new Promise<void>((resolve) => (finishWork = resolve));
    jest.spyOn(store, 'create').mockImplementationOnce(async (...args) => {
      await workMayFinish;
      return create(...args);
    });
    const body = { email: 'late@example.com', role: 'member' };
    const key = newKey();

    const timedOut = await invite(t, me.cookie, body, key);
    expect([timedOut.status, timedOut.body]).toEqual([503, { error: 'Request timed out' }]);
    finishWork();
    const [invitation] = await eventually(async () => {
      const rows = await invitationsOf(t, me.tenant.id);
      expect(rows).toHaveLength(1);
      return rows;
    });
    const [stored] = await eventually(async () => {
      const keys = await keysOf(t, me.user.id);
      expect(keys).toEqual([expect.objectContaining({ responseStatus: 200, claimId: null })]);
      return keys;
    });
    expect(JSON.parse(stored.responseBody!)).toEqual({
      success: true,
      invitation: expect.objectContaining({ id: invitation.id, email: body.email }),
    });

    const retry = await invite(t, me.cookie, body, key);
    expect([retry.status, retry.body, retry.headers['idempotent-replayed']]).toEqual([
      200,
      JSON.parse(stored.responseBody!),
      'true',
    ]);
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(1);
  });
});

describe('POST /api/org/invitations/{id}/resend with an Idempotency-Key', () => {
  let t: TestApp;
  let me: Inviter;
  beforeAll(async () => {
    t = await createTestApp({ env: { INVITE_RATE_LIMIT: String(LIMIT) } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    me = await newInviter(t);
  });

  it('a retry replays the first answer: one new invitation, the old one revoked once, one e-mail, one unit of quota', async () => {
    const old = await factories(t).invitation({ tenantId: me.tenant.id });
    const key = newKey();
    const first = await resend(t, me.cookie, old.id, key);
    expect(first.status).toBe(200);
    const again = await resend(t, me.cookie, old.id, key);
    expect([again.status, again.body, again.headers['idempotent-replayed']]).toEqual([200, first.body, 'true']);
    const rows = await invitationsOf(t, me.tenant.id);
    expect(rows.map((row) => [row.id, row.status]).sort()).toEqual(
      [
        [old.id, 'revoked'],
        [first.body.invitation.id, 'pending'],
      ].sort(),
    );
    expect(await outboxOf(t, rows)).toHaveLength(1);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT - 1);
  });

  it('the same key on another invitation (another path) is 422; a stored 404 is replayed', async () => {
    const [one, two] = [
      await factories(t).invitation({ tenantId: me.tenant.id }),
      await factories(t).invitation({ tenantId: me.tenant.id }),
    ];
    const key = newKey();
    expect((await resend(t, me.cookie, one.id, key)).status).toBe(200);
    const other = await resend(t, me.cookie, two.id, key);
    expect([other.status, other.body]).toEqual([422, IDEMPOTENCY.reusedKey]);
    expect((await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: two.id })).status).toBe('pending');

    const unknownKey = newKey();
    const unknown = [
      await resend(t, me.cookie, 'no-such-invitation', unknownKey),
      await resend(t, me.cookie, 'no-such-invitation', unknownKey),
    ];
    expect(unknown.map((res) => [res.status, res.body, res.headers['idempotent-replayed']])).toEqual([
      [404, ORG_INVITATION_ERRORS.notFound, undefined],
      [404, ORG_INVITATION_ERRORS.notFound, 'true'],
    ]);
  });

  it.each([
    ['empty', ''],
    ['spaces only', '   '],
  ])(
    'a key that is %s is 400 "Invalid Idempotency-Key…": the invitation is not revoked, nothing is sent or stored',
    async (_, key) => {
      const old = await factories(t).invitation({ tenantId: me.tenant.id });
      const res = await invalidRequest(() => resend(t, me.cookie, old.id, key));
      expect([res.status, res.body]).toEqual([400, IDEMPOTENCY.invalidKey]);
      expect(await invitationsOf(t, me.tenant.id)).toEqual([
        expect.objectContaining({ id: old.id, status: 'pending' }),
      ]);
      expect(await keysOf(t, me.user.id)).toEqual([]);
      expect(await quotaLeft(t, me.cookie)).toBe(LIMIT);
    },
  );

  it('parallel resends with one key leave exactly one live invitation and one e-mail, all answered alike', async () => {
    const old = await factories(t).invitation({ tenantId: me.tenant.id });
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 5 }, () => resend(t, me.cookie, old.id, key)));
    expect(answers.map((res) => res.status)).toEqual(Array(5).fill(200));
    const live = (await invitationsOf(t, me.tenant.id)).filter((row) => row.status === 'pending');
    expect(live).toHaveLength(1);
    for (const res of answers) expect(res.body.invitation.id).toBe(live[0].id);
    expect(await outboxOf(t, live)).toHaveLength(1);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT - 1);
  });
});

describe('Idempotency-Keys: purge after 24 hours', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('deletes the keys created more than 24 hours ago, and only those', async () => {
    const keys = t.dataSource.getRepository(IdempotencyKeyEntity);
    const row = {
      callerId: 'purge-caller',
      requestHash: 'h'.repeat(64),
      claimId: null,
      claimedUntil: null,
      responseStatus: 200,
      responseBody: '{}',
    };
    await keys.insert([
      { ...row, key: 'old', createdAt: new Date(Date.now() - 24 * HOUR_MS - 60_000) },
      { ...row, key: 'recent', createdAt: new Date(Date.now() - 23 * HOUR_MS) },
    ]);
    expect(await t.app.get(IdempotencyKeyPurge).purge()).toBe(1);
    expect((await keys.findBy({ callerId: 'purge-caller' })).map((key) => key.key)).toEqual(['recent']);
    expect(await t.app.get(IdempotencyKeyPurge).purge()).toBe(0);
  });
});

describeWithRedis('Idempotency-Key across two instances on one database and Redis (needs TEST_REDIS_URL)', () => {
  const prefix = testRedisPrefix();
  let database: TestDatabase;
  let fleet: TestApp[];
  beforeAll(async () => {
    database = await createTestDatabase();
    const env = { INVITE_RATE_LIMIT: String(LIMIT), REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix };
    fleet = [await createTestApp({ database, env }), await createTestApp({ database, env })];
  });
  afterAll(async () => {
    await Promise.all(fleet.map((app) => app.close()));
    await database.drop();
    await deleteRedisKeys(prefix);
  });

  it('parallel requests with one key, spread over both, create one invitation and one e-mail, and spend one unit of quota', async () => {
    const me = await newInviter(fleet[0]);
    const key = newKey();
    const body = { email: 'fleet@example.com', role: 'admin' };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => invite(fleet[i % 2], me.cookie, body, key)));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    const rows = await invitationsOf(fleet[0], me.tenant.id);
    expect(rows).toHaveLength(1);
    for (const res of answers) expect(res.body.invitation.id).toBe(rows[0].id);
    expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(await outboxOf(fleet[0], rows)).toHaveLength(1);
    expect([await quotaLeft(fleet[0], me.cookie), await quotaLeft(fleet[1], me.cookie)]).toEqual([
      LIMIT - 1,
      LIMIT - 1,
    ]);

    // A retry on the other instance later replays it too.
    const later = await invite(fleet[1], me.cookie, body, key);
    expect([later.status, later.body, later.headers['idempotent-replayed']]).toEqual([200, answers[0].body, 'true']);
  });
});

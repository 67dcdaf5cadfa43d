import { Logger } from '@nestjs/common';
import { Response } from 'supertest';
import { In } from 'typeorm';
import { AuditEventEntity, InvitationEmailOutboxEntity, InvitationEntity } from '../src/database/entities';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { factories, sessionCookie } from './support/factories';
import { Inviter, newInviter } from './support/inviting';
import { ORG_INVITATION_ERRORS, UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { useTwoInstances } from './support/suites';
import { describeWithRedis } from './support/test-redis';
import { invalidRequest } from './support/documented-http';

const PATH = '/api/org/invitations/bulk';
const RATE_LIMITED = 'Too many invitations. Please try again later.';

const bulk = (app: TestApp, cookie: string, body: object, key?: string) => {
  const request = app.http.post(PATH).set('Cookie', cookie);
  if (key !== undefined) request.set('Idempotency-Key', key);
  return request.send(body);
};
const bulkCsv = (app: TestApp, cookie: string, csv: string, query = '') =>
  app.http
    .post(`${PATH}${query}`)
    .set('Cookie', cookie)
    .set('Content-Type', 'text/csv; charset=utf-8')
    .send(Buffer.from(csv, 'utf8'));
const quotaLeft = async (app: TestApp, cookie: string) =>
  (await app.http.get('/api/org/invite/quota').set('Cookie', cookie)).body.remaining;
const invitationsOf = (app: TestApp, tenantId: string) =>
  app.dataSource.getRepository(InvitationEntity).findBy({ tenantId });
const statusesOf = (res: Response) => res.body.results.map((result: { status: string }) => result.status);
const rows = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({ email: `${prefix}-${i}@example.com`, role: 'member' }));

describe('POST /api/org/invitations/bulk', () => {
  const LIMIT = 5;
  let t: TestApp;
  let me: Inviter;
  beforeAll(async () => {
    t = await createTestApp({ env: { INVITE_RATE_LIMIT: String(LIMIT), BULK_INVITE_MAX_ROWS: '13' } });
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());
  beforeEach(async () => {
    me = await newInviter(t);
  });

  it("answers each row's status in input order, stores each created row with its e-mail and event, one unit per created row", async () => {
    const member = await factories(t).member(me.tenant.id, { email: 'kate@example.com', role: 'member' });
    await factories(t).invitation({ tenantId: me.tenant.id, email: 'pending@example.com' });
    await factories(t).invitation({
      tenantId: me.tenant.id,
      email: 'old@example.com',
      expiresAt: new Date(Date.now() - 1_000),
    });
    const res = await invalidRequest(() =>
      bulk(t, me.cookie, {
        invitations: [
          { email: 'New@Example.com', role: 'admin' },
          { email: member.email.toUpperCase(), role: 'member' },
          { email: 'PENDING@example.com', role: 'member' },
          { email: 'new@example.com', role: 'member' },
          { email: 'not-an-address', role: 'member' },
          { email: 'bad-role@example.com', role: 'owner' },
          'a string',
          { role: 'member' },
          ...rows(4, 'more'),
          { email: 'old@example.com', role: 'member' },
        ],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      {
        row: 1,
        email: 'New@Example.com',
        status: 'created',
        invitation: expect.objectContaining({ email: 'New@Example.com', role: 'admin', status: 'pending' }),
      },
      {
        row: 2,
        email: member.email.toUpperCase(),
        status: 'already_member',
        error: 'User is already a member of this organisation',
      },
      {
        row: 3,
        email: 'PENDING@example.com',
        status: 'already_invited',
        error: 'This address has a pending invitation',
      },
      { row: 4, email: 'new@example.com', status: 'duplicate_in_request', error: 'Same address as row 1' },
      { row: 5, email: 'not-an-address', status: 'invalid', error: 'Invalid email address' },
      { row: 6, email: 'bad-role@example.com', status: 'invalid', error: 'Invalid role. Must be admin or member' },
      { row: 7, status: 'invalid', error: 'Each invitation must be an object with email and role' },
      { row: 8, status: 'invalid', error: 'Email is required' },
      ...[0, 1, 2, 3].map((i) => ({
        row: 9 + i,
        email: `more-${i}@example.com`,
        status: 'created',
        invitation: expect.any(Object),
      })),
      { row: 13, email: 'old@example.com', status: 'rate_limited', error: RATE_LIMITED },
    ]);
    expect(res.body.summary).toEqual({ created: 5, skipped: 3, failed: 5 });
    expect([res.headers['ratelimit-limit'], res.headers['ratelimit-remaining']]).toEqual([String(LIMIT), '0']);
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);

    const created = res.body.results
      .filter((result: { status: string }) => result.status === 'created')
      .map((result: { invitation: { id: string } }) => result.invitation.id);
    const stored = await t.dataSource.getRepository(InvitationEntity).findBy({ id: In(created) });
    expect(stored.map((row) => row.email).sort()).toEqual([
      'more-0@example.com',
      'more-1@example.com',
      'more-2@example.com',
      'more-3@example.com',
      'new@example.com',
    ]);
    expect(await t.dataSource.getRepository(InvitationEmailOutboxEntity).countBy({ invitationId: In(created) })).toBe(
      5,
    );
    expect(
      await t.dataSource
        .getRepository(AuditEventEntity)
        .countBy({ type: 'invitation.created', tenantId: me.tenant.id }),
    ).toBe(5);
    expect(await quotaLeft(t, me.cookie)).toBe(0);
  });

  it('takes a CSV pasted from a spreadsheet (BOM, CRLF, quotes, spaces, header in any case); the dry run previews the call', async () => {
    const csv =
      '\ufeffEmail, Role\r\nann@example.com, ' +
      'member\r\n"Bob@Example.com",admin\r\n"odd,comma@example.com",member\r\nann@example.com,member\r\n\r\n';
    const preview = await bulkCsv(t, me.cookie, csv, '?dryRun=true');
    expect(preview.status).toBe(200);
    expect(statusesOf(preview)).toEqual(['created', 'created', 'invalid', 'duplicate_in_request']);
    expect(preview.body.results[0]).toEqual({ row: 1, email: 'ann@example.com', status: 'created' });
    expect(preview.body.results[2].email).toBe('odd,comma@example.com');
    expect(preview.headers['ratelimit-remaining']).toBe(String(LIMIT));
    expect(await invitationsOf(t, me.tenant.id)).toEqual([]);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT);

    const sent = await bulkCsv(t, me.cookie, csv);
    expect(statusesOf(sent)).toEqual(statusesOf(preview));
    expect(sent.body.summary).toEqual(preview.body.summary);
    expect(sent.headers['ratelimit-remaining']).toBe(String(LIMIT - 2));
    expect((await invitationsOf(t, me.tenant.id)).map((row) => [row.email, row.role]).sort()).toEqual([
      ['ann@example.com', 'member'],
      ['bob@example.com', 'admin'],
    ]);
  });

  it('a dry run answers rate_limited as the real call would, and spends, stores and sends nothing', async () => {
    await bulk(t, me.cookie, { invitations: rows(3, 'first') });
    const body = { invitations: rows(4, 'second') };
    const preview = await bulk(t, me.cookie, { ...body, dryRun: true });
    expect(statusesOf(preview)).toEqual(['created', 'created', 'rate_limited', 'rate_limited']);
    expect(preview.headers['ratelimit-remaining']).toBe('2');
    expect(await quotaLeft(t, me.cookie)).toBe(2);
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(3);
    const sent = await bulk(t, me.cookie, body);
    expect(statusesOf(sent)).toEqual(statusesOf(preview));
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(5);
  });

  it('a request that creates nothing spends nothing', async () => {
    const member = await factories(t).member(me.tenant.id, { role: 'member' });
    const res = await bulk(t, me.cookie, {
      invitations: [
        { email: member.email, role: 'member' },
        { email: 'x', role: 'member' },
      ],
    });
    expect(res.body.summary).toEqual({ created: 0, skipped: 1, failed: 1 });
    expect(res.headers['ratelimit-remaining']).toBe(String(LIMIT));
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT);
  });

  it('shares the limit with the invite: what the invite spent is not there for the rows', async () => {
    expect(
      (
        await t.http
          .post('/api/org/invite')
          .set('Cookie', me.cookie)
          .send({ email: 'single@example.com', role: 'member' })
      ).status,
    ).toBe(200);
    const res = await bulk(t, me.cookie, { invitations: rows(5, 'after-single') });
    expect(res.body.summary).toEqual({ created: 4, skipped: 0, failed: 1 });
    expect(
      (
        await t.http
          .post('/api/org/invite')
          .set('Cookie', me.cookie)
          .send({ email: 'late@example.com', role: 'member' })
      ).status,
    ).toBe(429);
  });

  it('replays the first answer for the same Idempotency-Key, creating and spending nothing more', async () => {
    const key = `bulk-${Date.now()}`;
    const body = { invitations: rows(2, 'retried') };
    const first = await bulk(t, me.cookie, body, key);
    const again = await bulk(t, me.cookie, body, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await invitationsOf(t, me.tenant.id)).toHaveLength(2);
    expect(await quotaLeft(t, me.cookie)).toBe(LIMIT - 2);
    // The dry run is part of the request: the same key with it is another request.
    expect((await bulk(t, me.cookie, { ...body, dryRun: true }, key)).status).toBe(422);
  });

  it.each([
    ['an empty list', { invitations: [] }, 400, 'No invitations to send'],
    ['no list', { emails: ['a@example.com'] }, 400, 'invitations must be a list'],
    [
      'a dryRun that is not a boolean',
      { invitations: rows(1, 'x'), dryRun: 'yes' },
      400,
      'dryRun must be true or false',
    ],
    [
      'more rows than BULK_INVITE_MAX_ROWS',
      { invitations: rows(14, 'many') },
      413,
      'Too many invitations: at most 13 per request',
    ],
  ])('refuses %s, storing and spending nothing', async (_what, body, status, error) => {
    const res = await invalidRequest(() => bulk(t, me.cookie, body));
    expect([res.status, res.body]).toEqual([status, { error }]);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
    expect(await invitationsOf(t, me.tenant.id)).toEqual([]);
  });

  it('refuses a CSV without the email and role columns, or with an unclosed quote; and a 413 for too many CSV rows', async () => {
    expect((await bulkCsv(t, me.cookie, 'address,role\na@example.com,member\n')).body).toEqual({
      error: 'The CSV header must name the columns email and role',
    });
    expect((await bulkCsv(t, me.cookie, 'email,role\n"a@example.com,member\n')).body).toEqual({
      error: 'Malformed CSV body: A quoted field is not closed',
    });
    const many = ['email,role', ...rows(14, 'csv').map((row) => `${row.email},member`)].join('\n');
    expect((await bulkCsv(t, me.cookie, many)).status).toBe(413);
    expect((await invalidRequest(bulkCsv(t, me.cookie, 'email,role\n', '?dryRun=maybe'))).status).toBe(400);
  });

  it('needs a session (401) and an owner or admin (403), before reading the body', async () => {
    const anonymous = await invalidRequest(() => t.http.post(PATH).send({ invitations: [] }));
    expect([anonymous.status, anonymous.body]).toEqual([401, UNAUTHORIZED]);
    const member = await factories(t).member(me.tenant.id, { role: 'member' });
    const memberCookie = await sessionCookie(t, member);
    const refused = await invalidRequest(() => bulk(t, memberCookie, { invitations: [] }));
    expect([refused.status, refused.body]).toEqual([403, ORG_INVITATION_ERRORS.notOwnerOrAdmin]);
    const admin = await factories(t).member(me.tenant.id, { role: 'admin' });
    expect(
      (await bulk(t, await sessionCookie(t, admin), { invitations: rows(1, 'by-admin') })).body.summary.created,
    ).toBe(1);
  });
});

describe('POST /api/org/invitations/bulk: a hundred rows, stored in bounded transactions', () => {
  let t: TestApp;
  let me: Inviter;
  beforeAll(async () => {
    t = await createTestApp({ env: { INVITE_RATE_LIMIT: '1000' } });
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());
  beforeEach(async () => {
    me = await newInviter(t);
  });

  it('a 100-address CSV: previewed, then sent, every row created with its e-mail', async () => {
    const csv = [
      'email,role',
      ...rows(100, 'team').map((row, i) => `${row.email},${i % 10 ? 'member' : 'admin'}`),
    ].join('\r\n');
    const preview = await bulkCsv(t, me.cookie, csv, '?dryRun=true');
    expect(preview.body.summary).toEqual({ created: 100, skipped: 0, failed: 0 });
    const sent = await bulkCsv(t, me.cookie, csv);
    expect(sent.body.summary).toEqual({ created: 100, skipped: 0, failed: 0 });
    expect(sent.body.results.map((result: { row: number }) => result.row)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    const stored = await invitationsOf(t, me.tenant.id);
    expect(stored).toHaveLength(100);
    expect(stored.filter((row) => row.role === 'admin')).toHaveLength(10);
    expect(
      await t.dataSource
        .getRepository(InvitationEmailOutboxEntity)
        .countBy({ invitationId: In(stored.map((row) => row.id)) }),
    ).toBe(100);
    expect(await quotaLeft(t, me.cookie)).toBe(900);
  });

  it('a failure in the middle: the failed batch is not stored and its rows say so; the others are whole; its units returned', async () => {
    const store = t.app.get(InvitationsStore);
    const createMany = store.createMany.bind(store);
    jest
      .spyOn(store, 'createMany')
      .mockImplementationOnce(createMany)
      .mockRejectedValueOnce(new Error('database went away'));
    const errors = jest.spyOn(Logger.prototype, 'error');
    const res = await bulk(t, me.cookie, { invitations: rows(60, 'partial') });
    expect(errors).toHaveBeenCalledWith('Storing 10 invitations in one transaction failed: database went away');
    expect(res.status).toBe(200);
    expect(statusesOf(res)).toEqual([...Array(50).fill('created'), ...Array(10).fill('failed')]);
    expect(res.body.results[59]).toEqual({
      row: 60,
      email: 'partial-59@example.com',
      status: 'failed',
      error: 'Failed to create invitation',
    });
    expect(res.body.summary).toEqual({ created: 50, skipped: 0, failed: 10 });
    const stored = await invitationsOf(t, me.tenant.id);
    expect(stored.map((row) => row.email).sort()).toEqual(
      rows(50, 'partial')
        .map((row) => row.email)
        .sort(),
    );
    const ids = stored.map((row) => row.id);
    expect(await t.dataSource.getRepository(InvitationEmailOutboxEntity).countBy({ invitationId: In(ids) })).toBe(50);
    expect(
      await t.dataSource
        .getRepository(AuditEventEntity)
        .countBy({ type: 'invitation.created', tenantId: me.tenant.id }),
    ).toBe(50);
    expect(res.headers['ratelimit-remaining']).toBe('950');
    expect(await quotaLeft(t, me.cookie)).toBe(950);

    // The failed rows, sent again, are created; the others are now already invited.
    const retry = await bulk(t, me.cookie, { invitations: rows(60, 'partial') });
    expect(retry.body.summary).toEqual({ created: 10, skipped: 50, failed: 0 });
  });

  it('a failure before any row is stored answers 500, stores nothing and gives every unit back', async () => {
    jest.spyOn(t.app.get(InvitationsStore), 'findTenantName').mockRejectedValueOnce(new Error('database went away'));
    const res = await bulk(t, me.cookie, { invitations: rows(3, 'unstored') });
    expect([res.status, res.body]).toEqual([500, { error: 'Failed to send the invitations' }]);
    expect(await invitationsOf(t, me.tenant.id)).toEqual([]);
    expect(await quotaLeft(t, me.cookie)).toBe(1000);
  });
});

describeWithRedis('POST /api/org/invitations/bulk on two instances sharing one Redis (needs TEST_REDIS_URL)', () => {
  const LIMIT = 5;
  const { first, second } = useTwoInstances(() => ({ env: { INVITE_RATE_LIMIT: String(LIMIT) }, redis: true }));

  it('parallel requests on both never together create more than the limit; the rows beyond it are rate_limited', async () => {
    const inviter = await newInviter(first);
    const [a, b] = await Promise.all([
      bulk(first, inviter.cookie, { invitations: rows(4, 'on-first') }),
      bulk(second, inviter.cookie, { invitations: rows(4, 'on-second') }),
    ]);
    expect(a.body.summary.created + b.body.summary.created).toBe(LIMIT);
    expect(a.body.summary.failed + b.body.summary.failed).toBe(8 - LIMIT);
    expect(await invitationsOf(first, inviter.tenant.id)).toHaveLength(LIMIT);
    expect(await quotaLeft(second, inviter.cookie)).toBe(0);
    const preview = await bulk(second, inviter.cookie, { invitations: rows(1, 'later'), dryRun: true });
    expect(statusesOf(preview)).toEqual(['rate_limited']);
  });
});

import { randomUUID } from 'node:crypto';
import { NewAuditEvent, toAuditEventRow } from '../src/audit/audit-event';
import { AuditEventsStore } from '../src/audit/audit-events.store';
import { AuditRetention } from '../src/audit/audit-retention';
import { AuditEventEntity } from '../src/database/entities';
import { factories, sessionCookie } from './support/factories';
import { FORBIDDEN, UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { invalidRequest } from './support/documented-http';

/** The audit trail (docs/audit.md): the two listings, their filters, paging and tenant isolation. */
describe('audit trail listings', () => {
  let database: TestDatabase;
  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  let rootCookie: string;
  const env = { AUDIT_RETENTION_DAYS: '30' };

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ database, env });
    factory = factories(t);
    rootCookie = await sessionCookie(t, await factory.superAdmin());
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  /** Stores events at the given times (ms after 2026-01-01), made by `actorId`; their ids, newest first. */
  async function store(actorId: string, at: number[], overrides: Partial<NewAuditEvent> = {}): Promise<string[]> {
    const rows = at.map((ms) =>
      toAuditEventRow(randomUUID(), new Date(Date.UTC(2026, 0, 1) + ms), {
        type: 'member.removed',
        tenantId: 'tenant-x',
        actor: { id: actorId, email: `${actorId}@example.com` },
        target: { type: 'user', id: `target-of-${actorId}`, email: null },
        data: {},
        ...overrides,
      }),
    );
    await t.dataSource.getRepository(AuditEventEntity).insert(rows);
    return rows
      .sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || (b.id < a.id ? -1 : 1))
      .map((row) => row.id);
  }
  const actor = () => `actor-${randomUUID()}`;
  const ids = (body: { events: { id: string }[] }) => body.events.map((event) => event.id);

  describe('GET /api/admin/audit-events', () => {
    const list = (query: Record<string, string | string[]>, cookie = rootCookie) =>
      t.http.get('/api/admin/audit-events').query(query).set('Cookie', cookie);

    it('section 5: no session, or a caller who is not a super-admin, is 403 Forbidden', async () => {
      const anonymous = await t.http.get('/api/admin/audit-events');
      expect([anonymous.status, anonymous.body]).toEqual([403, FORBIDDEN]);
      const member = await factory.member('tenant-x', { role: 'owner' });
      const res = await list({}, await sessionCookie(t, member));
      expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    });

    it('newest first, a page of `limit`, and nextCursor to the next page until the last', async () => {
      const by = actor();
      const newestFirst = await store(by, [1_000, 3_000, 2_000, 2_000, 4_000]);
      const first = await list({ actorId: by, limit: '2' });
      expect(first.status).toBe(200);
      expect(ids(first.body)).toEqual(newestFirst.slice(0, 2));
      const second = await list({ actorId: by, limit: '2', cursor: first.body.nextCursor });
      expect(ids(second.body)).toEqual(newestFirst.slice(2, 4));
      const last = await list({ actorId: by, limit: '2', cursor: second.body.nextCursor });
      expect(last.body).toEqual({ events: [expect.objectContaining({ id: newestFirst[4] })] });
    });

    it('answers events in the API shape', async () => {
      const by = actor();
      const [id] = await store(by, [5_000]);
      expect((await list({ actorId: by })).body).toEqual({
        events: [
          {
            id,
            type: 'member.removed',
            occurredAt: '2026-01-01T00:00:05.000Z',
            tenantId: 'tenant-x',
            actor: { id: by, email: `${by}@example.com` },
            target: { type: 'user', id: `target-of-${by}` },
            data: {},
          },
        ],
      });
    });

    it('filters by type (repeatable), targetId, since and until (inclusive)', async () => {
      const by = actor();
      const [removed] = await store(by, [1_000]);
      const [granted] = await store(by, [2_000], { type: 'super_admin.granted' });
      const [deleted] = await store(by, [3_000], {
        type: 'user.deleted',
        target: { type: 'user', id: `other-${by}`, email: null },
      });
      expect(ids((await list({ actorId: by, type: ['member.removed', 'user.deleted'] })).body)).toEqual([
        deleted,
        removed,
      ]);
      expect(ids((await list({ actorId: by, type: 'super_admin.granted' })).body)).toEqual([granted]);
      expect(ids((await list({ actorId: by, targetId: `other-${by}` })).body)).toEqual([deleted]);
      const window = { since: '2026-01-01T00:00:02.000Z', until: '2026-01-01T00:00:03Z' };
      expect(ids((await list({ actorId: by, ...window })).body)).toEqual([deleted, granted]);
      expect(ids((await list({ actorId: by, until: '2026-01-01T01:00:01+01:00' })).body)).toEqual([removed]);
    });

    it('several types: pages of each merged newest first (ties by id), paged by cursor to the last', async () => {
      const by = actor();
      const times = [5_000, 5_000, 4_000, 3_000, 3_000, 3_000, 2_000, 1_000];
      const removed = await store(by, times);
      const deleted = await store(by, times, { type: 'user.deleted' });
      await store(by, times, { type: 'super_admin.granted' });
      const expected = await t.dataSource.getRepository(AuditEventEntity).find({
        where: [
          { actorId: by, type: 'member.removed' },
          { actorId: by, type: 'user.deleted' },
        ],
      });
      expected.sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || (b.id < a.id ? -1 : 1));
      expect(expected.map((row) => row.id).sort()).toEqual([...removed, ...deleted].sort());

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const query = { actorId: by, type: ['member.removed', 'user.deleted'], limit: '3', ...(cursor && { cursor }) };
        const res = await list(query);
        expect(res.status).toBe(200);
        seen.push(...ids(res.body));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(expected.map((row) => row.id));
    });

    it('lists the events that the routes wrote', async () => {
      const created = await t.http
        .post('/api/admin/tenants')
        .set('Cookie', rootCookie)
        .send({ name: 'Initech', type: 'business' });
      const res = await list({ targetId: created.body.tenant.id });
      expect(res.body.events).toEqual([
        expect.objectContaining({ type: 'tenant.created', tenantId: created.body.tenant.id }),
      ]);
    });

    it('a store failure is 500 {error:"Failed to list audit events"}', async () => {
      jest.spyOn(t.app.get(AuditEventsStore), 'list').mockRejectedValueOnce(new Error('db down'));
      const res = await list({});
      expect([res.status, res.body]).toEqual([500, { error: 'Failed to list audit events' }]);
    });

    it.each([
      ['an unknown type', { type: 'member.promoted' }, 'type must be one of: '],
      ['limit 0', { limit: '0' }, 'limit must be an integer from 1 to 100'],
      ['limit 101', { limit: '101' }, 'limit must be an integer from 1 to 100'],
      ['limit abc', { limit: 'abc' }, 'limit must be an integer from 1 to 100'],
      ['a since that is not ISO 8601', { since: 'yesterday' }, 'since must be an ISO 8601 date-time'],
      ['an impossible until', { until: '2026-02-30T00:00:00Z' }, 'until must be an ISO 8601 date-time'],
      ['an empty actorId', { actorId: '' }, 'actorId must be a non-empty string of at most 128 characters'],
      ['a cursor it did not make', { cursor: 'bm90LWEtY3Vyc29y' }, 'Invalid cursor'],
    ])('bad filters: %s is 400 {error}', async (_, query, message) => {
      const res = await invalidRequest(() => list(query));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringContaining(message) });
    });
  });

  describe('GET /api/org/audit-events', () => {
    const list = (cookie: string | undefined, query: Record<string, string> = {}) => {
      const request = t.http.get('/api/org/audit-events').query(query);
      return cookie ? request.set('Cookie', cookie) : request;
    };

    it("tenant isolation: an owner or admin sees their own tenant's events and no other's", async () => {
      const [mine, theirs] = [await factory.tenant(), await factory.tenant()];
      const by = actor();
      const myEvents = await store(by, [1_000, 2_000], { tenantId: mine.id });
      await store(by, [3_000], { tenantId: theirs.id });
      await store(by, [4_000], { tenantId: null });
      for (const role of ['owner', 'admin']) {
        const res = await list(await sessionCookie(t, await factory.member(mine.id, { role })));
        expect(res.status).toBe(200);
        expect(ids(res.body)).toEqual(myEvents);
      }
    });

    it('the filters apply within the tenant', async () => {
      const tenant = await factory.tenant();
      const by = actor();
      const [newer] = await store(by, [2_000], { tenantId: tenant.id, type: 'invitation.created' });
      await store(by, [1_000], { tenantId: tenant.id });
      const owner = await sessionCookie(t, await factory.member(tenant.id));
      expect(ids((await list(owner, { type: 'invitation.created' })).body)).toEqual([newer]);
      expect((await list(owner, { limit: '1' })).body).toEqual({
        events: [expect.objectContaining({ id: newer })],
        nextCursor: expect.any(String),
      });
      expect((await invalidRequest(() => list(owner, { since: 'soon' }))).status).toBe(400);
    });

    it('no session is 401; a member, or a user outside any organisation, is 403', async () => {
      const tenant = await factory.tenant();
      expect((await list(undefined)).body).toEqual(UNAUTHORIZED);
      const member = await list(await sessionCookie(t, await factory.member(tenant.id, { role: 'member' })));
      expect([member.status, member.body]).toEqual([403, { error: 'Only owner or admin can read the audit trail' }]);
      const outsider = await list(await sessionCookie(t, await factory.superAdmin()));
      expect([outsider.status, outsider.body]).toEqual([403, { error: 'Only organisation users can access this' }]);
    });

    it('the caller is confirmed against the identity store: an owner demoted since the token was issued is 403', async () => {
      const tenant = await factory.tenant();
      const owner = await factory.member(tenant.id);
      const cookie = await sessionCookie(t, owner);
      await t.testIdentity.updateUser(owner.id, { role: 'member' });
      const res = await list(cookie);
      expect([res.status, res.body]).toEqual([403, { error: 'Only owner or admin can read the audit trail' }]);
    });
  });

  describe('AUDIT_RETENTION_DAYS', () => {
    it('the purge deletes the events older than the retention and keeps the rest, also when two instances purge at once', async () => {
      // A database of its own: the other tests' events are from January 2026.
      const shared = await createTestDatabase();
      const instances = [await createTestApp({ database: shared, env })];
      instances.push(await createTestApp({ database: shared, identityOf: shared, env }));
      try {
        const day = 24 * 3600 * 1000;
        const rows = [40, 31, 29, 1].map((daysAgo) =>
          toAuditEventRow(randomUUID(), new Date(Date.now() - daysAgo * day), {
            type: 'member.removed',
            tenantId: null,
            actor: null,
            target: { type: 'user', id: 'x', email: null },
            data: {},
          }),
        );
        const events = instances[0].dataSource.getRepository(AuditEventEntity);
        await events.insert(rows);
        const deleted = await Promise.all(instances.map(({ app }) => app.get(AuditRetention).purge()));
        expect(deleted[0] + deleted[1]).toBe(2);
        expect((await events.find({ order: { occurredAt: 'ASC' } })).map((row) => row.id)).toEqual([
          rows[2].id,
          rows[3].id,
        ]);
      } finally {
        for (const instance of instances) await instance.close();
        await shared.drop();
      }
    });
  });
});

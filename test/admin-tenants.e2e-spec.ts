import { TenantEntity } from '../src/database/entities';
import { factories, sessionCookie } from './support/factories';
import { FORBIDDEN, ISO_8601, TENANT_ERRORS, UNAUTHORIZED, UUID } from './support/spec-bodies';
import { withoutTable } from './support/without-table';
import { createTestApp, TestApp } from './support/test-app';
import { invalidRequest } from './support/documented-http';

describe('admin tenants (spec 4.3, 4.4)', () => {
  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    factory = factories(t);
    admin = await sessionCookie(t, await factory.superAdmin());
  });
  afterAll(() => t.close());
  beforeEach(() => t.dataSource.getRepository(TenantEntity).clear());

  const tenantRows = () => t.dataSource.getRepository(TenantEntity).find();

  describe('GET /api/admin/tenants', () => {
    it('answers {tenants: []} when there are none', async () => {
      const res = await t.http.get('/api/admin/tenants').set('Cookie', admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ tenants: [] });
    });

    it('lists every tenant with the spec fields only, without pagination', async () => {
      const rows = [];
      for (let i = 0; i < 3; i++) rows.push(await factory.tenant({ createdAt: new Date(Date.UTC(2026, 0, 1 + i)) }));
      const res = await t.http.get('/api/admin/tenants').set('Cookie', admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        tenants: rows.map((row) => ({
          id: row.id,
          name: row.name,
          type: row.type,
          status: row.status,
          createdAt: row.createdAt.toISOString(),
        })),
      });
    });

    it('section 5: no session is 401 Unauthorized', async () => {
      const res = await t.http.get('/api/admin/tenants');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it('section 5: a signed-in caller who is not a super admin is 403 Forbidden', async () => {
      const user = await factory.user();
      const res = await t.http.get('/api/admin/tenants').set('Cookie', await sessionCookie(t, user));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });

    it('section 5: a valid token for a user the store no longer has is 403', async () => {
      const ghost = await factory.superAdmin();
      const cookie = await sessionCookie(t, ghost);
      await t.identity.deleteUser(ghost.id);
      const res = await t.http.get('/api/admin/tenants').set('Cookie', cookie);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });
  });

  describe('POST /api/admin/tenants', () => {
    it('rule 5: creates the tenant with status pending_owner and createdAt now: 201 {success, tenant}', async () => {
      const before = Date.now();
      const res = await t.http.post('/api/admin/tenants').set('Cookie', admin).send({ name: 'Acme', type: 'business' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        tenant: {
          id: expect.stringMatching(UUID),
          name: 'Acme',
          type: 'business',
          status: 'pending_owner',
          createdAt: expect.stringMatching(ISO_8601),
        },
      });
      const created = Date.parse(res.body.tenant.createdAt);
      expect(created).toBeGreaterThanOrEqual(before - 1000);
      expect(created).toBeLessThanOrEqual(Date.now() + 1000);
      const rows = await tenantRows();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: res.body.tenant.id,
        name: 'Acme',
        type: 'business',
        status: 'pending_owner',
      });
      expect(rows[0].createdAt.toISOString()).toBe(res.body.tenant.createdAt);
    });

    it.each(['personal', 'organisation', 'charity', 'business', 'nonprofit'])(
      'rule 4: accepts the allowed type %s',
      async (type) => {
        const res = await t.http.post('/api/admin/tenants').set('Cookie', admin).send({ name: 'N', type });
        expect(res.status).toBe(201);
        expect(res.body.tenant.type).toBe(type);
      },
    );

    it('rule 1: authorization comes first: no session is 401 even with an invalid body', async () => {
      const res = await invalidRequest(() => t.http.post('/api/admin/tenants').send({}));
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      expect(await tenantRows()).toHaveLength(0);
    });

    it('rule 1: a caller who is not a super admin is 403 even with an invalid body', async () => {
      const member = await factory.member((await factory.tenant()).id);
      await t.dataSource.getRepository(TenantEntity).clear();
      const cookie = await sessionCookie(t, member);
      const res = await invalidRequest(t.http.post('/api/admin/tenants').set('Cookie', cookie).send({ type: 'x' }));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
      expect(await tenantRows()).toHaveLength(0);
    });

    it.each([
      ['missing', { type: 'business' }],
      ['empty', { name: '', type: 'business' }],
      ['white space only', { name: '   ', type: 'business' }],
      ['null', { name: null, type: 'business' }],
    ])('rule 2: name %s is 400 "Name is required"', async (_, body) => {
      const res = await invalidRequest(() => t.http.post('/api/admin/tenants').set('Cookie', admin).send(body));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(TENANT_ERRORS.nameRequired);
      expect(await tenantRows()).toHaveLength(0);
    });

    it('rule 2 before rule 3: name and type both missing is "Name is required"', async () => {
      const res = await invalidRequest(() => t.http.post('/api/admin/tenants').set('Cookie', admin).send({}));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(TENANT_ERRORS.nameRequired);
    });

    it.each([
      ['missing', { name: 'Acme' }],
      ['empty', { name: 'Acme', type: '' }],
    ])('rule 3: type %s is 400 "Type is required"', async (_, body) => {
      const res = await invalidRequest(() => t.http.post('/api/admin/tenants').set('Cookie', admin).send(body));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(TENANT_ERRORS.typeRequired);
      expect(await tenantRows()).toHaveLength(0);
    });

    it.each(['company', 'Business', ' business', 42])(
      'rule 4: type %p outside the allowed list is 400 with the list',
      async (type) => {
        const res = await invalidRequest(() =>
          t.http.post('/api/admin/tenants').set('Cookie', admin).send({ name: 'Acme', type }),
        );
        expect(res.status).toBe(400);
        expect(res.body).toEqual(TENANT_ERRORS.invalidType);
        expect(await tenantRows()).toHaveLength(0);
      },
    );

    it('bad input: malformed JSON is a 400 JSON error and creates nothing', async () => {
      const res = await invalidRequest(() =>
        t.http
          .post('/api/admin/tenants')
          .set('Cookie', admin)
          .set('Content-Type', 'application/json')
          .send('{"name": "Acme",'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Malformed JSON body' });
      expect(await tenantRows()).toHaveLength(0);
    });

    it('bad input: an array body is a 400 JSON error', async () => {
      const res = await invalidRequest(() =>
        t.http
          .post('/api/admin/tenants')
          .set('Cookie', admin)
          .send([{ name: 'A', type: 'business' }]),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Request body must be a JSON object' });
      expect(await tenantRows()).toHaveLength(0);
    });

    it('bad input: a form-encoded body is not parsed and reaches the rules as empty', async () => {
      const res = await invalidRequest(() =>
        t.http.post('/api/admin/tenants').set('Cookie', admin).type('form').send('name=Acme&type=business'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(TENANT_ERRORS.nameRequired);
    });

    it('bad input: a non-string name and an over-long name are 400s', async () => {
      const number = await invalidRequest(() =>
        t.http.post('/api/admin/tenants').set('Cookie', admin).send({ name: 5, type: 'business' }),
      );
      expect(number.status).toBe(400);
      expect(number.body).toEqual({ error: 'Name must be a string' });
      const long = await invalidRequest(() =>
        t.http
          .post('/api/admin/tenants')
          .set('Cookie', admin)
          .send({ name: 'x'.repeat(256), type: 'business' }),
      );
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ error: 'Name must be at most 255 characters' });
      expect(await tenantRows()).toHaveLength(0);
    });

    it('bad input: a body over the size limit is 413 in the error shape', async () => {
      const res = await invalidRequest(() =>
        t.http
          .post('/api/admin/tenants')
          .set('Cookie', admin)
          .send({ name: 'x'.repeat(200_000), type: 'business' }),
      );
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'Request body too large' });
    });

    it('stores unicode names as given', async () => {
      const res = await t.http
        .post('/api/admin/tenants')
        .set('Cookie', admin)
        .send({ name: 'Zürich 🚀 组织', type: 'charity' });
      expect(res.status).toBe(201);
      expect((await tenantRows())[0].name).toBe('Zürich 🚀 组织');
    });
  });

  describe('store failures', () => {
    it('4.3: a failure when fetching is 500 {error:"Failed to fetch tenants"}', async () => {
      const res = await withoutTable(t.dataSource, 'tenants', () =>
        t.http.get('/api/admin/tenants').set('Cookie', admin),
      );
      expect(res.status).toBe(500);
      expect(res.body).toEqual(TENANT_ERRORS.fetchFailed);
    });

    // audit_events: the tenant and its audit event are written in one transaction.
    it.each(['tenants', 'audit_events'])(
      '4.4 rule 6: a create failure (%s cannot be written) is 500 {error:"Failed to create tenant"} and stores nothing',
      async (table) => {
        const res = await withoutTable(t.dataSource, table, () =>
          t.http.post('/api/admin/tenants').set('Cookie', admin).send({ name: 'Acme', type: 'business' }),
        );
        expect(res.status).toBe(500);
        expect(res.body).toEqual(TENANT_ERRORS.createFailed);
        expect(await tenantRows()).toHaveLength(0);
      },
    );
  });
});

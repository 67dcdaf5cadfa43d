import { sessionCookie } from './support/factories';
import { FORBIDDEN, SUPER_ADMIN_ERRORS, USER_NOT_FOUND } from './support/spec-bodies';
import { useTestApp } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

const userBody = (user: TestUser) => ({
  id: user.id,
  email: user.email,
  platformRole: user.platformRole,
  tenantId: user.tenantId,
  role: user.role,
});

describe('admin users and super-admins (spec 4.5–4.8)', () => {
  const { t, factory } = useTestApp();
  let caller: TestUser;
  let admin: string;
  let member: string;

  beforeAll(async () => {
    caller = await factory.superAdmin({ id: 'aaa-caller' });
    admin = await sessionCookie(t, caller);
    member = await sessionCookie(t, await factory.member('tenant-1', { role: 'owner' }));
  });
  afterAll(() => t.close());

  /** Section 5: on every route but /api/admin/tenants, any failed check is 403, even with no session. */
  const forbiddenWithoutSuperAdmin = (send: (cookie?: string) => Promise<{ status: number; body: unknown }>) => {
    it('section 5: no session is 403 Forbidden', async () => {
      const res = await send();
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });
    it('section 5: a caller who is not a super admin is 403 Forbidden', async () => {
      const res = await send(member);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });
  };

  describe('GET /api/admin/super-admins', () => {
    let admins: TestUser[];
    beforeAll(async () => {
      const extra = [];
      for (let i = 0; i < 4; i++) extra.push(await factory.superAdmin({ id: `bbb-admin-${i}` }));
      await factory.user({ id: 'ccc-plain' });
      admins = [caller, ...extra];
    });

    const list = (query = '') => t.http.get(`/api/admin/super-admins${query}`).set('Cookie', admin);

    it('lists users whose platformRole is super_admin: 200 {users, total} without nextToken on the last page', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ users: expect.any(Array), total: admins.length });
      expect(res.body).not.toHaveProperty('nextToken');
      expect(res.body.users).toEqual(expect.arrayContaining(admins.map(userBody)));
      expect(res.body.users.every((u: TestUser) => u.platformRole === 'super_admin')).toBe(true);
    });

    it('pages with limit and token: total is the number of users in this page', async () => {
      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const res = await list(`?limit=2${token ? `&token=${encodeURIComponent(token)}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(res.body.users.length);
        expect(res.body.users.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.users.map((u: TestUser) => u.id));
        token = res.body.nextToken;
        pages++;
      } while (token && pages < 10);
      expect(pages).toBe(3);
      expect(seen.sort()).toEqual(admins.map((a) => a.id).sort());
    });

    it('limit is parsed base 10: "02" is a page of two', async () => {
      const res = await list('?limit=02');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(typeof res.body.nextToken).toBe('string');
    });

    it.each(['0', '61', '-1', 'abc', '1.5', '10abc', ''])(
      'limit %p outside 1..60 is a 400 with a clear message',
      async (limit) => {
        const res = await invalidRequest(() => list(`?limit=${limit}`));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'limit must be an integer from 1 to 60' });
      },
    );

    it('an empty token is the first page', async () => {
      const res = await list('?limit=60&token=');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(admins.length);
    });

    it('limit given twice is a 400', async () => {
      const res = await list('?limit=1&limit=2');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'limit must be an integer from 1 to 60' });
    });

    it.each(['not a token', '!!!', 'x'.repeat(3000)])(
      'a malformed token is a 400 "Invalid pagination token"',
      async (token) => {
        const res = await invalidRequest(() => list(`?token=${encodeURIComponent(token)}`));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Invalid pagination token' });
      },
    );

    forbiddenWithoutSuperAdmin((cookie) => {
      const req = t.http.get('/api/admin/super-admins');
      return cookie ? req.set('Cookie', cookie) : req;
    });
  });

  describe('POST /api/admin/super-admins', () => {
    const grant = (body: unknown) =>
      t.http
        .post('/api/admin/super-admins')
        .set('Cookie', admin)
        .send(body as object);

    it('rule 5: grants the role, re-reads the user: 200 {success, message, user}, and the store holds the role', async () => {
      const user = await factory.member('tenant-9', { role: 'member' });
      const res = await grant({ email: user.email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Super admin role granted',
        user: { ...userBody(user), platformRole: 'super_admin' },
      });
      expect((await t.identity.findById(user.id))?.platformRole).toBe('super_admin');
    });

    it('rule 3: the e-mail is compared case-insensitively', async () => {
      const user = await factory.user({ email: `mixed-${Date.now()}@example.com` });
      const res = await grant({ email: user.email.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(user.id);
      expect((await t.identity.findById(user.id))?.platformRole).toBe('super_admin');
    });

    it('rule 1: authorization comes before validation: a non-super-admin with an empty body is 403', async () => {
      const res = await invalidRequest(() => t.http.post('/api/admin/super-admins').set('Cookie', member).send({}));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });

    it.each([
      ['missing', {}],
      ['empty', { email: '' }],
      ['null', { email: null }],
    ])('rule 2: email %s is 400 "Email is required"', async (_, body) => {
      const res = await invalidRequest(() => grant(body));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SUPER_ADMIN_ERRORS.emailRequired);
    });

    it('rule 3: no user with that e-mail is 404 "User not found with that email"', async () => {
      const res = await grant({ email: 'nobody@example.com' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(SUPER_ADMIN_ERRORS.notFound);
    });

    it('rule 3: a near match is not a match', async () => {
      const user = await factory.user();
      const res = await grant({ email: `x${user.email}` });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(SUPER_ADMIN_ERRORS.notFound);
      expect((await t.identity.findById(user.id))?.platformRole).toBeNull();
    });

    it('rule 4: a user who is already a super admin is 400 "User is already a super admin"', async () => {
      const res = await grant({ email: caller.email });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SUPER_ADMIN_ERRORS.alreadySuperAdmin);
    });

    it('bad input: a non-string e-mail, an array body and malformed JSON are 400s that change nothing', async () => {
      const numeric = await invalidRequest(() => grant({ email: 42 }));
      expect(numeric.status).toBe(400);
      expect(numeric.body).toEqual({ error: 'Email must be a string' });
      const array = await invalidRequest(() => grant([{ email: caller.email }]));
      expect(array.status).toBe(400);
      expect(array.body).toEqual({ error: 'Request body must be a JSON object' });
      const malformed = await invalidRequest(() =>
        t.http
          .post('/api/admin/super-admins')
          .set('Cookie', admin)
          .set('Content-Type', 'application/json')
          .send('{"email":'),
      );
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'Malformed JSON body' });
    });

    it('bad input: an injection-shaped e-mail finds nobody', async () => {
      const res = await grant({ email: `" or 1=1 --` });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(SUPER_ADMIN_ERRORS.notFound);
    });

    forbiddenWithoutSuperAdmin((cookie) => {
      const req = t.http.post('/api/admin/super-admins').send({ email: caller.email });
      return cookie ? req.set('Cookie', cookie) : req;
    });
  });

  describe('GET /api/admin/users/{id}', () => {
    it('found: 200 {user}', async () => {
      const user = await factory.member('tenant-2', { role: 'admin' });
      const res = await t.http.get(`/api/admin/users/${user.id}`).set('Cookie', admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: userBody(user) });
    });

    it('ids match exactly: other case or a trailing space is not the user', async () => {
      const user = await factory.user({ id: `exact-${Date.now()}` });
      for (const id of [user.id.toUpperCase(), `${user.id}%20`]) {
        const res = await t.http.get(`/api/admin/users/${id}`).set('Cookie', admin);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(USER_NOT_FOUND);
      }
    });

    it.each(['no-such-user', encodeURIComponent("' OR '1'='1"), 'x'.repeat(5000), encodeURIComponent('ユーザー')])(
      'not found: 404 {error:"User not found"} for %s',
      async (id) => {
        const res = await t.http.get(`/api/admin/users/${id}`).set('Cookie', admin);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(USER_NOT_FOUND);
      },
    );

    forbiddenWithoutSuperAdmin((cookie) => {
      const req = t.http.get(`/api/admin/users/${caller.id}`);
      return cookie ? req.set('Cookie', cookie) : req;
    });
  });

  describe('DELETE /api/admin/users/{id}', () => {
    it('deletes the account from the identity store: 200 {success, message}', async () => {
      const user = await factory.user();
      const res = await t.http.delete(`/api/admin/users/${user.id}`).set('Cookie', admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'User deleted' });
      expect(await t.identity.findById(user.id)).toBeNull();
      const again = await t.http.get(`/api/admin/users/${user.id}`).set('Cookie', admin);
      expect(again.status).toBe(404);
    });

    it('the user is looked up first: unknown id is 404 {error:"User not found"}', async () => {
      const res = await t.http.delete('/api/admin/users/no-such-user').set('Cookie', admin);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(USER_NOT_FOUND);
    });

    it('section 5: a non-super-admin cannot delete, and the user stays', async () => {
      const user = await factory.user();
      const res = await t.http.delete(`/api/admin/users/${user.id}`).set('Cookie', member);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
      expect(await t.identity.findById(user.id)).not.toBeNull();
    });

    forbiddenWithoutSuperAdmin((cookie) => {
      const req = t.http.delete('/api/admin/users/whoever');
      return cookie ? req.set('Cookie', cookie) : req;
    });
  });

  describe('identity store failures (spec 4.5–4.8 rule "Failure")', () => {
    const fail = (method: 'listSuperAdmins' | 'findByEmail' | 'findById' | 'deleteUser', message: string) =>
      jest.spyOn(t.identity, method).mockRejectedValueOnce(new Error(message));

    it('list failure: 500 {error:"Failed to list super admins", details}', async () => {
      fail('listSuperAdmins', 'store down');
      const res = await t.http.get('/api/admin/super-admins').set('Cookie', admin);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to list super admins', details: 'store down' });
    });

    it('grant failure: 500 {error:"Failed to grant super admin role", details}', async () => {
      fail('findByEmail', 'search failed');
      const res = await t.http.post('/api/admin/super-admins').set('Cookie', admin).send({ email: 'a@b.co' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to grant super admin role', details: 'search failed' });
    });

    it('get failure: 500 {error:"Failed to get user", details}', async () => {
      const findById = t.identity.findById.bind(t.identity);
      // The guard's own look-up of the caller succeeds; the handler's fails.
      jest
        .spyOn(t.identity, 'findById')
        .mockImplementation((id) => (id === caller.id ? findById(id) : Promise.reject(new Error('read failed'))));
      const res = await t.http.get('/api/admin/users/someone').set('Cookie', admin);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to get user', details: 'read failed' });
    });

    it('delete failure: 500 {error:"Failed to delete user", details}, and the user stays', async () => {
      const user = await factory.user();
      fail('deleteUser', 'delete failed');
      const res = await t.http.delete(`/api/admin/users/${user.id}`).set('Cookie', admin);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to delete user', details: 'delete failed' });
      expect(await t.identity.findById(user.id)).not.toBeNull();
    });

    it('section 5: a failing super-admin check is 403 on the user routes', async () => {
      jest.spyOn(t.identity, 'findById').mockRejectedValue(new Error('store down'));
      const res = await t.http.get(`/api/admin/users/${caller.id}`).set('Cookie', admin);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });
  });
});

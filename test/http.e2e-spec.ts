import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { factories, sessionCookie } from './support/factories';
import { INVITATION_POST } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { invalidRequest } from './support/documented-http';

/** Error bodies not fixed by the spec (README, "Errors") and the request filters of the configuration. */
describe('HTTP surface', () => {
  describe('errors outside the spec', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('an unknown route is 404 in the error shape', async () => {
      const res = await invalidRequest(() => t.http.get('/api/nothing-here'));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Cannot GET /api/nothing-here' });
    });

    it('a wrong method on a known path is a 4xx JSON error, never a 500', async () => {
      const res = await invalidRequest(() => t.http.put('/api/admin/tenants').send({}));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Cannot PUT /api/admin/tenants' });
    });

    it('a malformed percent-encoding in the path is 400 JSON', async () => {
      const res = await t.http.get('/api/admin/users/%E0%A4%A');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
    });

    it('does not announce the framework', async () => {
      const res = await t.http.get('/api/admin/tenants');
      expect(res.headers['x-powered-by']).toBeUndefined();
    });
  });

  describe('ALLOWED_HOSTS and ALLOWED_ORIGINS', () => {
    let t: TestApp;
    let admin: string;
    beforeAll(async () => {
      t = await createTestApp({
        env: { ALLOWED_HOSTS: 'api.example.com,127.0.0.1', ALLOWED_ORIGINS: 'https://portal.example.com' },
      });
      admin = await sessionCookie(t, await factories(t).superAdmin());
    });
    afterAll(() => t.close());

    const create = () =>
      t.http.post('/api/admin/tenants').set('Cookie', admin).send({ name: 'Acme', type: 'business' });
    const tenantCount = () => t.dataSource.getRepository(TenantEntity).count();

    it('a Host that is not listed is refused with 400', async () => {
      const res = await t.http.get('/api/admin/tenants').set('Host', 'evil.example.net').set('Cookie', admin);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Host not allowed' });
    });

    it('a listed Host, with or without a port, is served', async () => {
      const res = await t.http.get('/api/admin/tenants').set('Host', 'API.example.com:443').set('Cookie', admin);
      expect(res.status).toBe(200);
    });

    it('a cookie-authenticated POST from a foreign Origin is refused with 403 and changes nothing', async () => {
      const before = await tenantCount();
      const res = await create().set('Host', 'api.example.com').set('Origin', 'https://evil.example.net');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Origin not allowed' });
      expect(await tenantCount()).toBe(before);
    });

    it('a POST from a listed Origin, or with no Origin, is served; CORS allows the listed origin', async () => {
      const listed = await create().set('Host', 'api.example.com').set('Origin', 'https://portal.example.com');
      expect(listed.status).toBe(201);
      expect(listed.headers['access-control-allow-origin']).toBe('https://portal.example.com');
      expect(listed.headers['access-control-allow-credentials']).toBe('true');
      // So that a portal's script can read the invitation quota's headers and see a replay.
      expect(listed.headers['access-control-expose-headers']).toBe(
        'RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,Retry-After,Idempotent-Replayed',
      );
      const none = await create().set('Host', 'api.example.com');
      expect(none.status).toBe(201);
    });

    describe('POST /api/invitations/{token} (public: it reads no session, so the Origin rule does not apply)', () => {
      const accept = (path: string) =>
        t.http
          .post(path)
          .set('Host', 'api.example.com')
          .set('Cookie', 'id_token=anything; theme=dark')
          .set('Origin', 'https://evil.example.net');

      it('with a cookie and a foreign Origin, a pending invitation is accepted: 200 and the row is accepted', async () => {
        const invitation = await factories(t).invitation();
        const res = await accept(`/api/invitations/${invitation.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, tenantId: invitation.tenantId, role: invitation.role });
        const row = await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id });
        expect(row.status).toBe('accepted');
      });

      it.each(['/api/invitations', '/api/invitations/'])(
        'without a token (%s) it answers rule 1, not the Origin refusal',
        async (path) => {
          const res = await accept(path);
          expect(res.status).toBe(400);
          expect(res.body).toEqual(INVITATION_POST.invalid);
        },
      );
    });

    it('a CORS preflight from a foreign origin gets no allow-origin header', async () => {
      const res = await invalidRequest(() =>
        t.http
          .options('/api/admin/tenants')
          .set('Host', 'api.example.com')
          .set('Origin', 'https://evil.example.net')
          .set('Access-Control-Request-Method', 'POST'),
      );
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('REQUEST_TIMEOUT_MS', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { REQUEST_TIMEOUT_MS: '300' } });
    });
    afterAll(() => t.close());
    afterEach(() => jest.restoreAllMocks());

    it('a handler stuck on its database answers 503 after the timeout instead of hanging', async () => {
      jest.spyOn(t.app.get(InvitationsStore), 'findById').mockReturnValue(new Promise(() => undefined));
      const started = Date.now();
      const res = await t.http.get('/api/invitations/6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Request timed out' });
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('a super-admin check stuck on the identity store is refused after the timeout (403), not hung', async () => {
      const cookie = await sessionCookie(t, await factories(t).superAdmin());
      jest.spyOn(t.identity, 'findById').mockReturnValue(new Promise(() => undefined));
      const started = Date.now();
      const res = await t.http.get('/api/admin/super-admins').set('Cookie', cookie);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Forbidden' });
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('a handler that answers in time is not affected', async () => {
      const res = await t.http.get('/api/invitations/6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11');
      expect(res.status).toBe(404);
    });
  });
});

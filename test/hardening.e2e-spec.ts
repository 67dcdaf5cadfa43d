import { HTTP_SERVER_LIMITS } from '../src/app.setup';
import { createTestApp, TestApp } from './support/test-app';
import { invalidRequest } from './support/documented-http';

/** Headers, limits and the request filters' exceptions for probes. */
describe('hardening', () => {
  describe('headers and limits', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('API responses carry helmet headers with a CSP that allows nothing, and no X-Powered-By', async () => {
      const res = await t.http.get('/api/invitations/some-token');
      expect(res.headers).toMatchObject({
        'content-security-policy': "default-src 'none';frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': expect.stringContaining('max-age='),
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('error responses refused before routing carry them too', async () => {
      const res = await invalidRequest(() => t.http.post('/api/invitations/x').send({ padding: 'x'.repeat(150_000) }));
      expect(res.status).toBe(413);
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    });

    it('the Swagger UI page alone gets a CSP that lets it load its own scripts and styles', async () => {
      const res = await t.http.get('/api/docs');
      expect(res.status).toBe(200);
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' https: 'unsafe-inline'");
      expect(csp).not.toContain('upgrade-insecure-requests');
    });

    it.each([
      ['POST /api/invitations/{token}', '/api/invitations/any-token'],
      ['POST /api/admin/super-admins', '/api/admin/super-admins'],
    ])('%s: a JSON body over 100 kB is 413 in the error shape, before any session check', async (_, path) => {
      const res = await invalidRequest(() => t.http.post(path).send({ email: 'x'.repeat(101 * 1024) }));
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'Request body too large' });
    });

    it('headers over 16 KB are refused with 431 and the server keeps serving', async () => {
      const res = await t.http
        .get('/health/live')
        .set('X-Padding', 'x'.repeat(20 * 1024))
        .ok(() => true);
      expect(res.status).toBe(431);
      expect((await t.http.get('/health/live')).status).toBe(200);
    });

    it('the HTTP server outlasts a load balancer idle timeout of 60 s and bounds slow clients', () => {
      const server = t.app.getHttpServer();
      expect(server).toMatchObject(HTTP_SERVER_LIMITS);
      expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
      expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
      expect(server.requestTimeout).toBeGreaterThanOrEqual(server.headersTimeout);
    });

    it.each([
      ['taken from x-request-id when sane', 'lb-7f3a.9c21', 'lb-7f3a.9c21'],
      ['made when absent', undefined, undefined],
      ['made when it holds spaces', 'id with spaces', undefined],
      ['made when over 128 characters', 'a'.repeat(129), undefined],
    ])('the request id is %s, and returned', async (_, sent, returned) => {
      const request = t.http.get('/health/live');
      if (sent) request.set('X-Request-Id', sent);
      const res = await request;
      if (returned) expect(res.headers['x-request-id']).toBe(returned);
      else expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('ALLOWED_HOSTS', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ALLOWED_HOSTS: 'api.example.com' } });
    });
    afterAll(() => t.close());

    // Load balancers and Prometheus address an instance by its IP: the Host is then that IP.
    it.each(['/health/live', '/health/ready', '/metrics'])('%s answers whatever the Host', async (path) => {
      const res = await t.http.get(path).set('Host', '10.0.3.17:3000');
      expect(res.status).toBe(200);
    });

    it('API routes still refuse a Host that is not listed', async () => {
      const res = await t.http.get('/api/invitations/some-token').set('Host', '10.0.3.17:3000');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Host not allowed' });
    });
  });
});

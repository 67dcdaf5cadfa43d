import { WIRING_CONTEXTS } from '../src/logging/app-logger';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { factories, sessionCookie } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { invalidRequest } from './support/documented-http';

interface LogLine {
  level: string;
  msg: string;
  reqId?: string;
  context?: string;
  [field: string]: unknown;
}

/**
 * One JSON line per request, and no secret in any line. The app logs to stdout;
 * this suite captures what is written there (and keeps it off the console).
 */
describe('structured logs', () => {
  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  let written: string[];
  let startup: string;

  const output = () => written.join('');
  const lines = (): LogLine[] =>
    output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
  const requestLine = (reqId: string) =>
    lines().find((line) => line.reqId === reqId && line.msg.startsWith('request '));

  beforeAll(async () => {
    written = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(chunk.toString());
      return true;
    });
    t = await createTestApp({ env: { LOG_LEVEL: 'info' } });
    startup = output();
    factory = factories(t);
  });
  afterAll(async () => {
    await t.close();
    jest.restoreAllMocks();
  });
  beforeEach(() => {
    written.length = 0;
  });

  it("writes nothing but JSON lines, start-up included; Nest's wiring lines are debug, not info", () => {
    const parsed = startup
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
    expect(parsed.filter((line) => WIRING_CONTEXTS.has(line.context ?? ''))).toEqual([]);
  });

  it('one line per request: request id (taken and returned), method, route pattern, status and latency', async () => {
    const admin = await factory.superAdmin();
    const res = await t.http
      .get('/api/admin/tenants')
      .set('Cookie', await sessionCookie(t, admin))
      .set('X-Request-Id', 'req-tenants-1');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('req-tenants-1');
    expect(requestLine('req-tenants-1')).toEqual({
      level: 'info',
      time: expect.any(String),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: 'req-tenants-1',
      method: 'GET',
      route: '/api/admin/tenants',
      url: '/api/admin/tenants',
      status: 200,
      responseTime: expect.any(Number),
      remoteAddress: expect.any(String),
      msg: 'request completed',
    });
    expect(lines().filter((line) => line.reqId === 'req-tenants-1')).toHaveLength(1);
  });

  it('client errors are warnings; requests refused before routing are logged too', async () => {
    await invalidRequest(() => t.http.post('/api/admin/tenants').set('X-Request-Id', 'req-no-session').send({}));
    await invalidRequest(() =>
      t.http
        .post('/api/invitations/x')
        .set('X-Request-Id', 'req-too-large')
        .send({ a: 'x'.repeat(150_000) }),
    );
    expect(requestLine('req-no-session')).toMatchObject({
      level: 'warn',
      method: 'POST',
      route: '/api/admin/tenants',
      status: 401,
    });
    expect(requestLine('req-too-large')).toMatchObject({
      level: 'warn',
      method: 'POST',
      route: 'unmatched',
      status: 413,
    });
  });

  it('probes are logged at debug level only: the info log is not flooded', async () => {
    await t.http.get('/health/ready').set('X-Request-Id', 'req-probe');
    await t.http.get('/metrics').set('X-Request-Id', 'req-scrape');
    expect(requestLine('req-probe')).toBeUndefined();
    expect(requestLine('req-scrape')).toBeUndefined();
  });

  it('the app’s own log calls go through pino with their context and the request id', async () => {
    const invitation = await factory.invitation();
    jest.spyOn(t.app.get(InvitationsStore), 'findById').mockRejectedValueOnce(new Error('connection lost'));
    await t.http.get(`/api/invitations/${invitation.id}`).set('X-Request-Id', 'req-store-down');
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: 'error',
        context: 'InvitationsService',
        reqId: 'req-store-down',
        msg: 'Loading an invitation failed: connection lost',
      }),
    );
  });

  it('never logs cookies, Authorization, session tokens, invitation tokens or page tokens', async () => {
    const admin = await factory.superAdmin();
    const cookie = await sessionCookie(t, admin);
    const sessionToken = cookie.slice(cookie.indexOf('=') + 1);
    const invitation = await factory.invitation();
    const other = await factory.invitation();
    const secrets = [sessionToken, 'bearer-secret-value', invitation.id, other.id, 'page-token-secret'];

    await t.http.get('/api/admin/tenants').set('Cookie', cookie).set('Authorization', 'Bearer bearer-secret-value');
    await t.http.get(`/api/admin/super-admins?limit=5&token=page-token-secret`).set('Cookie', cookie);
    await t.http.get(`/api/invitations/${invitation.id}`).set('X-Request-Id', 'req-validate');
    await t.http.post(`/api/invitations/${invitation.id}`).set('X-Request-Id', 'req-accept');
    await t.http
      .post(`/api/invitations/${other.id}?token=${other.id}`)
      .set('Cookie', cookie)
      .set('X-Request-Id', 'req-query');

    const logged = output();
    for (const secret of secrets) expect(logged).not.toContain(secret);
    expect(logged).not.toMatch(/id_token=|authorization|set-cookie/i);
    expect(requestLine('req-validate')).toMatchObject({
      route: '/api/invitations/:token',
      url: '/api/invitations/[REDACTED]',
      status: 200,
    });
    expect(requestLine('req-accept')).toMatchObject({
      method: 'POST',
      url: '/api/invitations/[REDACTED]',
      status: 200,
    });
    expect(requestLine('req-query')).toMatchObject({ url: '/api/invitations/[REDACTED]?token=[REDACTED]' });
  });

  it('never logs the token of the invitation page that the e-mail links to (/invitations/<token>, outside /api)', async () => {
    const invitation = await factory.invitation();
    await t.http.get(`/invitations/${invitation.id}`).set('X-Request-Id', 'req-page');
    await t.http
      .post(`/invitations/${invitation.id}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .set('X-Request-Id', 'req-page-accept');
    await t.http.get(`/invitations/${invitation.id}`).set('X-Request-Id', 'req-page-used');

    expect(output()).not.toContain(invitation.id);
    expect(requestLine('req-page')).toMatchObject({
      route: '/invitations/:token',
      url: '/invitations/[REDACTED]',
      status: 200,
    });
    expect(requestLine('req-page-accept')).toMatchObject({
      method: 'POST',
      url: '/invitations/[REDACTED]',
      status: 200,
    });
    expect(requestLine('req-page-used')).toMatchObject({ url: '/invitations/[REDACTED]', status: 400 });
  });
});

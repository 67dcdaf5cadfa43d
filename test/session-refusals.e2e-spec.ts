import { factories, sessionCookie } from './support/factories';
import { UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { TestUser } from './support/test-identity';

/**
 * Issue 10 item 6: a 401 never says why, but the debug log does: which check failed, never the
 * token. The app logs to stdout; this suite captures what is written there.
 */
describe('why a request has no session (LOG_LEVEL=debug)', () => {
  let t: TestApp;
  let superAdmin: TestUser;
  let written: string[];

  beforeAll(async () => {
    written = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(chunk.toString());
      return true;
    });
    t = await createTestApp({ env: { LOG_LEVEL: 'debug' } });
    superAdmin = await factories(t).superAdmin();
  });
  afterAll(async () => {
    await t.close();
    jest.restoreAllMocks();
  });
  beforeEach(() => {
    written.length = 0;
  });

  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({
    ...t.testIdentity.issuerClaims,
    sub: superAdmin.id,
    'cognito:username': superAdmin.id,
    token_use: 'id',
    iat: now(),
    exp: now() + 300,
  });
  const cookieOf = (token: string) => `${t.config.sessionCookieName}=${token}`;
  /** The debug lines that say why there was no session. */
  const reasons = () =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: string; context?: string; msg: string })
      .filter((line) => line.context === 'Session')
      .map((line) => [line.level, line.msg]);

  it.each<[string, () => Promise<{ cookie?: string; authorization?: string; token?: string }>, RegExp]>([
    ['no cookie', async () => ({}), /^No session: no session cookie$/],
    [
      'a token in a Bearer header instead of the cookie',
      async () => {
        const token = await t.testIdentity.sessionToken(superAdmin);
        return { authorization: `Bearer ${token}`, token };
      },
      /^No session: no session cookie \(an Authorization header is sent, but sessions are read from cookies only\)$/,
    ],
    [
      'an expired token',
      async () => {
        const token = t.testIdentity.signedPayload({ ...claims(), iat: now() - 600, exp: now() - 300 });
        return { cookie: cookieOf(token), token };
      },
      /^No session: jwt expired$/,
    ],
    [
      'a bad signature',
      async () => {
        const [header, payload, signature] = (await t.testIdentity.sessionToken(superAdmin)).split('.');
        const token = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
        return { cookie: cookieOf(token), token };
      },
      /^No session: invalid signature$/,
    ],
    [
      'no exp',
      async () => {
        const { exp, ...withoutExp } = claims();
        const token = t.testIdentity.signedPayload(withoutExp);
        return { cookie: cookieOf(token), token };
      },
      /^No session: the token has no exp claim$/,
    ],
    [
      'the wrong token_use',
      async () => {
        const token = t.testIdentity.signedPayload({ ...claims(), token_use: 'access' });
        return { cookie: cookieOf(token), token };
      },
      /^No session: token_use is not "id"$/,
    ],
    [
      'a payload that is not an object',
      async () => {
        const token = t.testIdentity.signedPayload(null);
        return { cookie: cookieOf(token), token };
      },
      /^No session: the token payload is not a JSON object$/,
    ],
    [
      'a malformed token',
      async () => ({ cookie: cookieOf('not-a-jwt'), token: 'not-a-jwt' }),
      /^No session: jwt malformed$/,
    ],
  ])(
    '%s: 401 {"error":"Unauthorized"}, and one debug line that says so, without the token',
    async (_, make, reason) => {
      const { cookie, authorization, token } = await make();
      const request = t.http.get('/api/admin/tenants');
      if (cookie) request.set('Cookie', cookie);
      if (authorization) request.set('Authorization', authorization);
      const res = await request;
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      expect(reasons()).toEqual([['debug', expect.stringMatching(reason)]]);
      if (token) expect(written.join('')).not.toContain(token.split('.').pop());
    },
  );

  it('a valid session logs no such line', async () => {
    const res = await t.http.get('/api/admin/tenants').set('Cookie', await sessionCookie(t, superAdmin));
    expect(res.status).toBe(200);
    expect(reasons()).toEqual([]);
  });
});

import { sign } from 'jsonwebtoken';
import { factories, sessionCookie } from './support/factories';
import { FORBIDDEN, UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { TestUser } from './support/test-identity';

/** CONTRACT "Sessions" in local mode: HS256 id tokens from the session cookie, verified before use. */
describe('sessions (local mode)', () => {
  let t: TestApp;
  let superAdmin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { SESSION_COOKIE_NAME: 'portal_session' } });
    superAdmin = await factories(t).superAdmin();
  });
  afterAll(() => t.close());

  const claims = (user: TestUser, extra: object = {}) => ({
    sub: user.id,
    email: user.email,
    token_use: 'id',
    ...extra,
  });
  const tenants = (cookie?: string) => {
    const req = t.http.get('/api/admin/tenants');
    return cookie ? req.set('Cookie', cookie) : req;
  };
  const expectNoSession = async (cookie: string) => {
    const res = await tenants(cookie);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  };

  it('accepts a valid token from the SESSION_COOKIE_NAME cookie', async () => {
    const res = await tenants(await sessionCookie(t, superAdmin));
    expect(res.status).toBe(200);
  });

  it('reads the cookie named by SESSION_COOKIE_NAME only', async () => {
    const token = sign(claims(superAdmin), TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 60 });
    await expectNoSession(`id_token=${token}`);
  });

  it('ignores a token in the Authorization header: sessions come from cookies only', async () => {
    const token = sign(claims(superAdmin), TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 60 });
    const res = await t.http.get('/api/admin/tenants').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it.each([
    ['expired', () => sign(claims(superAdmin, { exp: Math.floor(Date.now() / 1000) - 10 }), TEST_JWT_SECRET)],
    [
      'signed with another key',
      () => sign(claims(superAdmin), 'another-key-another-key-another-key!', { expiresIn: 60 }),
    ],
    [
      'an access token (token_use: access)',
      () => sign(claims(superAdmin, { token_use: 'access' }), TEST_JWT_SECRET, { expiresIn: 60 }),
    ],
    ['without token_use', () => sign({ sub: superAdmin.id }, TEST_JWT_SECRET, { expiresIn: 60 })],
    ['without sub', () => sign({ token_use: 'id', email: superAdmin.email }, TEST_JWT_SECRET, { expiresIn: 60 })],
    ['alg: none', () => sign(claims(superAdmin), '', { algorithm: 'none' } as never)],
    [
      'HS512 with the right key (algorithm not pinned)',
      () => sign(claims(superAdmin), TEST_JWT_SECRET, { algorithm: 'HS512', expiresIn: 60 }),
    ],
    ['garbage', () => 'not.a.jwt'],
    [
      'tampered payload',
      () => {
        const [header, , signature] = sign(claims({ ...superAdmin, id: 'someone-else' }), TEST_JWT_SECRET).split('.');
        const payload = Buffer.from(JSON.stringify(claims(superAdmin))).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
    ],
  ])('a token that is %s is no session: 401 on /api/admin/tenants', async (_, token) => {
    await expectNoSession(`portal_session=${token()}`);
  });

  it('no session on another admin route is 403 (spec section 5)', async () => {
    const res = await t.http.get('/api/admin/super-admins').set('Cookie', 'portal_session=garbage');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('an oversized or malformed Cookie header is no session, never a 500', async () => {
    await expectNoSession(`portal_session=${'a'.repeat(6000)}`);
    await expectNoSession('portal_session=%E0%A4%A; other=;;=');
  });
});

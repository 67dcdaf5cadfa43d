import { PROVIDER_HOOK_TIMEOUT_MS, TestOidcProvider } from './support/oidc-provider';
import { SSO_BASE, SSO_PORTAL, useOidcSuite } from './support/sso';

/**
 * docs/sso.md, "Where a sign-in lands": a sign-in without returnTo goes to SSO_DEFAULT_RETURN_TO,
 * else to this service's signed-in page, never to an address where nothing is served.
 */
describe('single sign-on: where a sign-in without returnTo lands', () => {
  const provider = new TestOidcProvider();
  beforeAll(() => provider.start(), PROVIDER_HOOK_TIMEOUT_MS);
  afterAll(() => provider.stop());

  describe('SSO_DEFAULT_RETURN_TO unset', () => {
    const { t, factory, org, activeConnection, signIn } = useOidcSuite(provider);
    /** A member's sign-in without returnTo, and the session cookie it sets. */
    const signedIn = async () => {
      const { id, domain } = await activeConnection();
      const member = await factory.member(org.tenant.id, { email: `lena@${domain}` });
      const res = await signIn(id, { sub: 'lena', email: member.email });
      const [cookie] = (res.headers['set-cookie'] as unknown as string[]) ?? [];
      return { res, member, cookie: cookie?.split(';')[0] };
    };

    describe('GET /sso/oidc/{id}/callback', () => {
      it('302 to this service’s signed-in page', async () => {
        const { res, cookie } = await signedIn();
        expect([res.status, res.headers.location]).toEqual([302, `${SSO_BASE}/sso/signed-in`]);
        expect(cookie).toMatch(/^id_token=/);
      });
    });

    describe('GET /sso/signed-in', () => {
      it('200 HTML: “Signed in as … to …” and a sign-out button posting to POST /api/me/sign-out; the pages’ policy, not cached', async () => {
        const { member, cookie } = await signedIn();
        const res = await t.http.get('/sso/signed-in').set('Cookie', cookie);
        expect([res.status, res.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
        expect(res.text).toContain(
          `<p>Signed in as <strong>${member.email}</strong> to <strong>${org.tenant.name}</strong>.</p>`,
        );
        expect(res.text).toContain(
          '<form method="post" action="/api/me/sign-out"><input type="hidden" name="returnTo" value="/sso/signed-in">' +
            '<button type="submit">Sign out</button></form>',
        );
        expect(res.text).not.toContain('<script');
        expect(res.headers).toMatchObject({
          'content-security-policy': "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
          'x-robots-tag': 'noindex',
        });
      });

      it('the button’s form post ends the session and clears the cookie; the page then says nobody is signed in', async () => {
        const { cookie } = await signedIn();
        const out = await t.http
          .post('/api/me/sign-out')
          .set('Cookie', cookie)
          .type('form')
          .send({ returnTo: '/sso/signed-in' });
        expect(out.status).toBe(302);
        expect(out.headers['set-cookie']).toEqual(['id_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax']);
        const res = await t.http.get('/sso/signed-in').set('Cookie', cookie);
        expect([res.status, res.text]).toEqual([200, expect.stringContaining('<p>You are not signed in.</p>')]);
        expect(res.text).not.toContain('<form');
      });

      it('no session: 200, nobody is signed in', async () => {
        const res = await t.http.get('/sso/signed-in');
        expect([res.status, res.text]).toEqual([200, expect.stringContaining('<p>You are not signed in.</p>')]);
      });
    });
  });

  describe('SSO_DEFAULT_RETURN_TO a path', () => {
    const { activeConnection, signIn } = useOidcSuite(provider, { SSO_DEFAULT_RETURN_TO: '/dashboard' });

    describe('GET /sso/oidc/{id}/callback', () => {
      it('302 to it on this service; a returnTo given still wins', async () => {
        const { id, domain } = await activeConnection();
        const res = await signIn(id, { sub: 'dana', email: `dana@${domain}` });
        expect([res.status, res.headers.location]).toEqual([302, `${SSO_BASE}/dashboard`]);
        const given = await signIn(id, { sub: 'dana', email: `dana@${domain}` }, '/settings');
        expect([given.status, given.headers.location]).toEqual([302, `${SSO_BASE}/settings`]);
      });
    });
  });

  describe('SSO_DEFAULT_RETURN_TO an address under SSO_RETURN_ORIGINS', () => {
    const { activeConnection, signIn } = useOidcSuite(provider, { SSO_DEFAULT_RETURN_TO: `${SSO_PORTAL}/welcome` });

    describe('GET /sso/oidc/{id}/callback', () => {
      it('302 to the portal', async () => {
        const { id, domain } = await activeConnection();
        const res = await signIn(id, { sub: 'pia', email: `pia@${domain}` });
        expect([res.status, res.headers.location]).toEqual([302, `${SSO_PORTAL}/welcome`]);
      });
    });
  });
});

import { randomBytes } from 'node:crypto';
import { CognitoTestIdentity } from './support/cognito-test-identity';
import { factories } from './support/factories';
import { UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { TestUser } from './support/test-identity';

// The library that Amplify's CookieStorage writes browser cookies with.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- js-cookie ships no types
const Cookies: { set(name: string, value: string, attributes?: object): string | undefined } = require('js-cookie');

type Cookie = [name: string, value: string];

/** The Cookie header a browser sends after js-cookie has written `cookies` (js-cookie writes document.cookie). */
function asJsCookieWritesThem(cookies: Cookie[]): string {
  const written: string[] = [];
  const global = globalThis as { document?: unknown };
  global.document = {
    set cookie(line: string) {
      written.push(line.split(';')[0]);
    },
    get cookie() {
      return '';
    },
  };
  try {
    for (const [name, value] of cookies) Cookies.set(name, value, { path: '/', secure: true, sameSite: 'strict' });
  } finally {
    delete global.document;
  }
  return written.join('; ');
}

/** The Cookie header after a server-side adapter wrote `cookies` with plain encodeURIComponent. */
const asServerAdaptersWriteThem = (cookies: Cookie[]) =>
  cookies.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('; ');

/**
 * Amplify's cookies for a pool whose usernames are e-mail addresses, against
 * real cognito-local sign-ins. js-cookie percent-encodes the `@` in the idToken cookie's name.
 */
describe("Amplify's cookies with e-mail usernames (cognito mode)", () => {
  let t: TestApp;
  let cognito: CognitoTestIdentity;
  let factory: ReturnType<typeof factories>;
  let superAdmin: TestUser;
  let owner: TestUser;
  let prefix: string;
  const emailUsername = (who: string) => `${who}.${randomBytes(4).toString('hex')}@acme.example`;

  beforeAll(async () => {
    t = await createTestApp();
    cognito = t.testIdentity as CognitoTestIdentity;
    factory = factories(t);
    prefix = `CognitoIdentityServiceProvider.${cognito.pool.clientId}`;
    const tenant = await factory.tenant();
    const rootName = emailUsername('root');
    superAdmin = await factory.superAdmin({ id: rootName, email: rootName });
    const ownerName = emailUsername('ann');
    owner = await factory.member(tenant.id, { id: ownerName, email: ownerName, role: 'owner' });
  });
  afterAll(() => t.close());

  /** Amplify's two cookies for a signed-in user: LastAuthUser and that user's idToken, keyed by `key`. */
  const amplifyCookies = (key: string, idToken: string): Cookie[] => [
    [`${prefix}.LastAuthUser`, key],
    [`${prefix}.${key}.idToken`, idToken],
  ];
  const idTokenOf = async (user: TestUser) => (await cognito.signIn(user.id)).IdToken!;

  it("a real sign-in's id token names the user by the e-mail username", async () => {
    const token = await idTokenOf(owner);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims['cognito:username']).toBe(owner.id);
    expect(owner.id).toContain('@');
  });

  describe.each([
    ['written by js-cookie (browser)', asJsCookieWritesThem],
    ['written with encodeURIComponent (server-side adapter)', asServerAdaptersWriteThem],
  ])('cookies %s', (_, write) => {
    it('the header carries the percent-encoded name, as browsers send it', async () => {
      const header = write(amplifyCookies(owner.id, 'token'));
      expect(header).toContain(`${prefix}.${owner.id.replace('@', '%40')}.idToken=token`);
    });

    it('GET /api/admin/tenants (401 kind): 200 for the signed-in super-admin', async () => {
      const res = await t.http
        .get('/api/admin/tenants')
        .set('Cookie', write(amplifyCookies(superAdmin.id, await idTokenOf(superAdmin))));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ tenants: expect.any(Array) });
    });

    it('GET /api/admin/users/{id} (403 kind): 200 for the signed-in super-admin', async () => {
      const res = await t.http
        .get(`/api/admin/users/${encodeURIComponent(owner.id)}`)
        .set('Cookie', write(amplifyCookies(superAdmin.id, await idTokenOf(superAdmin))));
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: owner.id, role: 'owner' });
    });

    it('POST /api/org/invite: 200 for the signed-in owner, and the invitation is stored as theirs', async () => {
      const res = await t.http
        .post('/api/org/invite')
        .set('Cookie', write(amplifyCookies(owner.id, await idTokenOf(owner))))
        .send({ email: `new-${randomBytes(3).toString('hex')}@example.com`, role: 'member' });
      expect(res.status).toBe(200);
      const row = await t.dataSource.query('SELECT invited_by FROM tenant_invitations WHERE id = ?', [
        res.body.invitation.id,
      ]);
      expect(row).toEqual([{ invited_by: owner.id }]);
    });

    it('DELETE /api/org/users/{id}: 200 for the signed-in owner, and the member is removed', async () => {
      const memberName = emailUsername('member');
      const member = await factory.member(owner.tenantId!, { id: memberName, email: memberName, role: 'member' });
      const res = await t.http
        .delete(`/api/org/users/${encodeURIComponent(member.id)}`)
        .set('Cookie', write(amplifyCookies(owner.id, await idTokenOf(owner))));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await t.identity.findById(member.id)).toMatchObject({ tenantId: null, role: null });
    });
  });

  describe('LastAuthUser in whichever form it arrives', () => {
    const tenants = (cookie: string) => t.http.get('/api/admin/tenants').set('Cookie', cookie);

    it('percent-encoded in the value, with the idToken name as js-cookie writes it', async () => {
      const token = await idTokenOf(superAdmin);
      const cookie =
        `${prefix}.LastAuthUser=${encodeURIComponent(superAdmin.id)}; ` +
        `${asJsCookieWritesThem([[`${prefix}.${superAdmin.id}.idToken`, token]])}`;
      expect(cookie).toContain('LastAuthUser=root.');
      expect(cookie).toContain('%40acme.example');
      expect((await tenants(cookie)).status).toBe(200);
    });

    it('literal, as the name of a cookie written without encoding', async () => {
      const token = await idTokenOf(superAdmin);
      expect(
        (
          await tenants(
            amplifyCookies(superAdmin.id, token)
              .map((pair) => pair.join('='))
              .join('; '),
          )
        ).status,
      ).toBe(200);
    });

    it('an e-mail address that is not the Cognito username (the cookies are keyed by it, the token names the user)', async () => {
      const bob = await factory.superAdmin({ email: `bob.${randomBytes(3).toString('hex')}@acme.example` });
      expect(bob.id).not.toContain('@');
      expect((await tenants(asJsCookieWritesThem(amplifyCookies(bob.email, await idTokenOf(bob))))).status).toBe(200);
    });
  });

  describe('cookie values taken exactly as the browser sends them: no session, never a 500', () => {
    const expectNoSession = async (cookie: string) => {
      const res = await t.http.get('/api/admin/tenants').set('Cookie', cookie);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    };

    it.each([
      ['garbage', 'not-a-jwt'],
      ['three empty segments', '..'],
      ['a bad percent-escape', '%E0%A4%A'],
      ["a JSON cookie (cookie-parser's j: prefix)", 'j:{"sub":"root"}'],
      ['quoted garbage', '"a.b.c"'],
    ])('a malformed idToken cookie: %s', async (_, value) => {
      await expectNoSession(
        asServerAdaptersWriteThem(amplifyCookies(superAdmin.id, 'x')).replace(/idToken=x$/, `idToken=${value}`),
      );
    });

    it('the idToken cookie twice with conflicting values (js-cookie and literal names): 401', async () => {
      const token = await idTokenOf(superAdmin);
      const other = await idTokenOf(owner);
      await expectNoSession(
        `${asJsCookieWritesThem(amplifyCookies(superAdmin.id, token))}; ${prefix}.${superAdmin.id}.idToken=${other}`,
      );
    });

    it('the idToken cookie twice with the same value: one session, 200', async () => {
      const token = await idTokenOf(superAdmin);
      const res = await t.http
        .get('/api/admin/tenants')
        .set(
          'Cookie',
          `${asJsCookieWritesThem(amplifyCookies(superAdmin.id, token))}; ${prefix}.${superAdmin.id}.idToken=${token}`,
        );
      expect(res.status).toBe(200);
    });

    it('LastAuthUser twice with conflicting values: 401', async () => {
      const token = await idTokenOf(superAdmin);
      await expectNoSession(
        `${asJsCookieWritesThem(amplifyCookies(superAdmin.id, token))}; ${prefix}.LastAuthUser=${owner.id}`,
      );
    });
  });
});

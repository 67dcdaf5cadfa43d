import { SsoConnectionEntity } from '../src/database/entities';
import { eventually } from './support/eventually';
import { PROVIDER_HOOK_TIMEOUT_MS, TestOidcProvider } from './support/oidc-provider';
import { setupRefused, useSetupLinksSuite } from './support/setup-links';
import { ssoRefused } from './support/sso';

/**
 * The single sign-on step of a setup link (docs/setup-links.md), against oidc-provider on the
 * loopback: the org routes' bodies, answers and refusals with the link's organisation; a connection
 * made through the link starts draft and becomes active only by a successful test sign-in of an
 * address in a proven domain, and then the owners are e-mailed.
 */
describe('setup links: the single sign-on step', () => {
  const provider = new TestOidcProvider();
  beforeAll(() => provider.start(), PROVIDER_HOOK_TIMEOUT_MS);
  afterAll(() => provider.stop());
  const { t, org, openLink, verified, person, itemsOf, events, mails } = useSetupLinksSuite();

  const oidcBody = (body: object = {}) => ({
    type: 'oidc',
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    ...body,
  });
  const create = (cookie: string, body: object = {}) =>
    t.http.post('/api/setup/sso/connections').set('Cookie', cookie).send(oidcBody(body));
  const patch = (cookie: string, id: string, body: object) =>
    t.http.patch(`/api/setup/sso/connections/${id}`).set('Cookie', cookie).send(body);
  const ownersConnection = async () => {
    const res = await t.http.post('/api/org/sso/connections').set('Cookie', org.ownerCookie).send(oidcBody());
    expect(res.status).toBe(201);
    return res.body.connection.id as string;
  };
  const row = (id: string) => t.dataSource.getRepository(SsoConnectionEntity).findOneByOrFail({ id });
  /** The IT admin's browser: the test's start at the provider, then back to the callback. */
  const testSignIn = async (cookie: string, id: string, who: { sub: string; email: string }) => {
    const started = await t.http.post(`/api/setup/sso/connections/${id}/test`).set('Cookie', cookie);
    expect([started.status, Object.keys(started.body)]).toEqual([200, ['startUrl']]);
    await provider.nextLogin(who);
    const callback = await provider.authorize(started.body.startUrl);
    return t.http.get(callback.pathname + callback.search);
  };

  describe('POST /api/setup/sso/connections', () => {
    it('201: a draft, as the org route answers; sso.connection_created with via; the link made it', async () => {
      const { id: linkId, cookie } = await openLink();
      const res = await create(cookie, { name: 'Okta' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        connection: expect.objectContaining({ name: 'Okta', status: 'draft', type: 'oidc' }),
      });
      const { id } = res.body.connection;
      expect((await row(id)).tenantId).toBe(org.tenant.id);
      expect(await events('sso.connection_created')).toEqual([
        expect.objectContaining({
          actorId: `setup_link:${linkId}`,
          data: expect.objectContaining({ via: { setupLink: linkId } }),
        }),
      ]);
      expect(await itemsOf(linkId)).toEqual([expect.objectContaining({ kind: 'sso_connection', itemId: id })]);
      const listed = await t.http.get('/api/setup/sso/connections').set('Cookie', cookie);
      expect(listed.body.connections.map((connection: { id: string }) => connection.id)).toEqual([id]);
      const one = await t.http.get(`/api/setup/sso/connections/${id}`).set('Cookie', cookie);
      const owners = await t.http.get(`/api/org/sso/connections/${id}`).set('Cookie', org.ownerCookie);
      expect([one.status, one.body]).toEqual([200, owners.body]);
    });

    it('the org route’s refusals: 400 SSO_CONNECTION_INVALID with its reason', async () => {
      const { cookie } = await openLink();
      const res = await t.http
        .post('/api/setup/sso/connections')
        .set('Cookie', cookie)
        .send({ type: 'oidc', issuer: 'x' });
      expect([res.status, res.body]).toEqual([400, ssoRefused('SSO_CONNECTION_INVALID')]);
    });
  });

  describe('PATCH /api/setup/sso/connections/{id}', () => {
    it('the settings of a connection the link made', async () => {
      const { cookie } = await openLink();
      const { id } = (await create(cookie)).body.connection;
      const res = await patch(cookie, id, { name: 'Entra ID' });
      expect([res.status, res.body.connection.name]).toEqual([200, 'Entra ID']);
    });

    it.each([
      [{ status: 'active' }, 'test sign-in'],
      [{ status: 'inactive' }, 'test sign-in'],
      [{ primary: true }, 'primary'],
    ])('%j: 403 SETUP_ACTION_NOT_ALLOWED; a link never switches a connection on', async (body, reason) => {
      const { cookie } = await openLink();
      const { id } = (await create(cookie)).body.connection;
      const res = await patch(cookie, id, body);
      expect([res.status, res.body]).toEqual([
        403,
        setupRefused('SETUP_ACTION_NOT_ALLOWED', expect.stringContaining(reason)),
      ]);
      expect((await row(id)).status).toBe('draft');
    });

    it('a connection it did not make: 403 SETUP_ACTION_NOT_ALLOWED; an unknown one 404 SSO_NOT_FOUND', async () => {
      const owners = await ownersConnection();
      const { cookie } = await openLink();
      const res = await patch(cookie, owners, { name: 'Renamed' });
      expect([res.status, res.body]).toEqual([403, setupRefused('SETUP_ACTION_NOT_ALLOWED')]);
      expect((await row(owners)).name).not.toBe('Renamed');
      const unknown = await patch(cookie, '00000000-0000-4000-8000-000000000000', { name: 'X' });
      expect([unknown.status, unknown.body]).toEqual([404, ssoRefused('SSO_NOT_FOUND')]);
    });
  });

  describe('DELETE /api/setup/sso/connections/{id}', () => {
    it('a connection the link made: 204, sso.connection_deleted with via', async () => {
      const { id: linkId, cookie } = await openLink();
      const { id } = (await create(cookie)).body.connection;
      const res = await t.http.delete(`/api/setup/sso/connections/${id}`).set('Cookie', cookie);
      expect(res.status).toBe(204);
      expect(await t.dataSource.getRepository(SsoConnectionEntity).countBy({ id })).toBe(0);
      expect(await events('sso.connection_deleted')).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ via: { setupLink: linkId } }) }),
      ]);
    });

    it('a connection it did not make: 403 SETUP_ACTION_NOT_ALLOWED, the connection kept', async () => {
      const owners = await ownersConnection();
      const { cookie } = await openLink();
      const res = await t.http.delete(`/api/setup/sso/connections/${owners}`).set('Cookie', cookie);
      expect([res.status, res.body]).toEqual([403, setupRefused('SETUP_ACTION_NOT_ALLOWED')]);
      expect(await t.dataSource.getRepository(SsoConnectionEntity).countBy({ id: owners })).toBe(1);
    });
  });

  describe('POST /api/setup/sso/connections/{id}/test', () => {
    it('a test sign-in of an address in a proven domain activates the draft; the owners are e-mailed', async () => {
      const domain = await verified();
      const { cookie } = await openLink();
      const { id } = (await create(cookie, { name: 'Okta' })).body.connection;
      const { user } = await person(domain);
      const res = await testSignIn(cookie, id, { sub: 'it-admin', email: user.email });
      expect([res.status, res.body.test]).toEqual([200, expect.objectContaining({ result: 'ok', activated: true })]);
      expect((await row(id)).status).toBe('active');
      const [mail] = await eventually(() => {
        const caught = mails(org.owner.email);
        expect(caught).toHaveLength(1);
        return caught;
      });
      expect(mail.parsed.subject).toBe('Single sign-on is active for Acme');
      expect(mail.parsed.text).toContain('“Okta”');
    });

    it('a failed test sign-in: the attempt’s exact reason; the connection stays draft; nobody e-mailed', async () => {
      await verified();
      const { cookie } = await openLink();
      const { id } = (await create(cookie)).body.connection;
      const res = await testSignIn(cookie, id, { sub: 'it-admin', email: 'kim@unproven.test' });
      expect([res.status, res.body]).toEqual([
        403,
        ssoRefused('SSO_DOMAIN_MISMATCH', 'unproven.test is not a verified domain of this organisation'),
      ]);
      expect((await row(id)).status).toBe('draft');
      const attempts = await t.http.get(`/api/setup/sso/connections/${id}/attempts`).set('Cookie', cookie);
      expect(attempts.status).toBe(200);
      expect(attempts.body.attempts[0]).toMatchObject({
        result: 'SSO_DOMAIN_MISMATCH',
        detail: 'test sign-in: unproven.test is not a verified domain of this organisation',
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(mails(org.owner.email)).toEqual([]);
    });

    it('a connection the owner made is not the link’s: its activation e-mails nobody', async () => {
      const domain = await verified();
      const owners = await ownersConnection();
      const { cookie } = await openLink();
      const { user } = await person(domain);
      const res = await testSignIn(cookie, owners, { sub: 'it-admin', email: user.email });
      expect([res.status, res.body.test.activated]).toEqual([200, true]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(mails(org.owner.email)).toEqual([]);
    });
  });
});

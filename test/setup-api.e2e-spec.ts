import { SetupLinkEntity } from '../src/database/entities/setup-link.entity';
import { invalidRequest } from './support/documented-http';
import { eventually } from './support/eventually';
import { ALL_INTENTS, setupRefused, useSetupLinksSuite } from './support/setup-links';

const UNAUTHORIZED = { error: 'Unauthorized' };

/**
 * The setup session's own routes (docs/setup-links.md): what it sees (GET /api/setup), its end
 * (POST /api/setup/complete), and who it is not: an org session opens none of them, and it opens no
 * org route.
 */
describe('setup links: the setup session', () => {
  const { t, org, openLink, expireLink, revokeLink, suspend, linkRow, events, verified, mails, webhooksOf } =
    useSetupLinksSuite();

  const overview = (cookie?: string) => {
    const request = t.http.get('/api/setup');
    return cookie ? request.set('Cookie', cookie) : request;
  };

  describe('GET /api/setup', () => {
    it('the organisation, the intents, the expiry and each granted step’s state', async () => {
      const domain = await verified();
      const { id, cookie } = await openLink();
      const res = await overview(cookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        organisation: { id: org.tenant.id, name: 'Acme' },
        intents: ALL_INTENTS,
        expiresAt: (await linkRow(id)).expiresAt.toISOString(),
        steps: {
          domain: { domains: [expect.objectContaining({ name: domain, status: 'verified' })] },
          sso: { connections: [], enforced: false },
          scim: { tokens: [] },
        },
      });
    });

    it('only the granted intents’ steps', async () => {
      const { cookie } = await openLink(['sso']);
      const res = await overview(cookie);
      expect([res.status, res.body.intents, Object.keys(res.body.steps)]).toEqual([200, ['sso'], ['sso']]);
    });

    it('an org session alone, the owner’s included, is no setup session: 401', async () => {
      await openLink();
      const res = await overview(org.ownerCookie);
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
      const none = await overview();
      expect([none.status, none.body]).toEqual([401, UNAUTHORIZED]);
    });

    it.each([
      ['a forged signature', (value: string) => value.replace(/\.[^.]+$/, '.AAAA')],
      ['a later expiry than signed', (value: string) => value.replace(/\.(\d+)\./, (_, exp) => `.${Number(exp) + 1}.`)],
      ['another link’s id', (value: string) => value.replace(/^[0-9a-f-]{36}/, '00000000-0000-4000-8000-000000000000')],
      ['garbage', () => 'garbage'],
    ])('a setup session with %s: 401', async (_, change) => {
      const { cookie } = await openLink();
      const [name, value] = cookie.split('=');
      const res = await overview(`${name}=${change(value)}`);
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
    });

    it('a revocation, an expiry or a suspension ends the session at once: 401 from the next request', async () => {
      const revoked = await openLink();
      await revokeLink(revoked.id);
      const expired = await openLink();
      await expireLink(expired.id);
      for (const { cookie } of [revoked, expired])
        expect([(await overview(cookie)).status, (await overview(cookie)).body]).toEqual([401, UNAUTHORIZED]);
      const suspended = await openLink();
      expect((await overview(suspended.cookie)).status).toBe(200);
      await suspend();
      expect((await overview(suspended.cookie)).status).toBe(401);
    });
  });

  describe('POST /api/setup/complete', () => {
    it('200: the link completed and closed, its session with it; event setup_link.completed; the owners e-mailed with what the link made', async () => {
      const { id, cookie } = await openLink();
      const made = await t.http
        .post('/api/setup/domains')
        .set('Cookie', cookie)
        .send({ domain: 'setup-complete.test' });
      expect(made.status).toBe(201);
      const res = await t.http.post('/api/setup/complete').set('Cookie', cookie);
      expect([res.status, res.body]).toEqual([200, { success: true, status: 'completed' }]);
      expect((await linkRow(id)).completedAt).not.toBeNull();
      expect(await events('setup_link.completed')).toEqual([
        expect.objectContaining({ targetId: id, actorId: `setup_link:${id}`, data: { via: { setupLink: id } } }),
      ]);
      expect((await overview(cookie)).status).toBe(401);
      const [mail] = await eventually(() => {
        const caught = mails(org.owner.email);
        expect(caught).toHaveLength(1);
        return caught;
      });
      expect(mail.parsed.subject).toBe('The setup of Acme is complete');
      expect(mail.parsed.text).toContain('Made through the link: the domain setup-complete.test.');
    });

    it('the link’s events and the changes made through it reach the webhooks, each with its via', async () => {
      const { id, cookie } = await openLink();
      await t.http.post('/api/setup/domains').set('Cookie', cookie).send({ domain: 'setup-hooks.test' });
      await t.http.post('/api/setup/complete').set('Cookie', cookie);
      const about = (type: string) =>
        webhooksOf(type).filter(
          (event) => event.target.id === id || (event.data.via as { setupLink?: string } | undefined)?.setupLink === id,
        );
      await eventually(() => {
        expect(about('setup_link.created')).toEqual([
          expect.objectContaining({ actor: expect.objectContaining({ id: org.owner.id }) }),
        ]);
        expect(about('setup_link.opened')).toHaveLength(1);
        expect(about('domain.added')).toEqual([
          expect.objectContaining({ data: expect.objectContaining({ via: { setupLink: id } }) }),
        ]);
        expect(about('setup_link.completed')).toEqual([
          expect.objectContaining({ actor: { id: `setup_link:${id}`, email: null } }),
        ]);
      });
    });

    it('a completed link cannot be completed again: its session is gone (401), nothing written', async () => {
      const { id, cookie } = await openLink();
      expect((await t.http.post('/api/setup/complete').set('Cookie', cookie)).status).toBe(200);
      const again = await t.http.post('/api/setup/complete').set('Cookie', cookie);
      expect([again.status, again.body]).toEqual([401, UNAUTHORIZED]);
      expect(await events('setup_link.completed')).toHaveLength(1);
      expect((await linkRow(id)).completedAt).not.toBeNull();
    });

    it('parallel completions: one 200, the other refused, one event', async () => {
      const { cookie } = await openLink();
      const answers = await Promise.all([
        t.http.post('/api/setup/complete').set('Cookie', cookie),
        t.http.post('/api/setup/complete').set('Cookie', cookie),
      ]);
      expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
      const other = answers.find((res) => res.status !== 200)!;
      expect([
        [401, UNAUTHORIZED],
        [409, setupRefused('SETUP_LINK_CLOSED')],
      ]).toContainEqual([other.status, other.body]);
      expect(await events('setup_link.completed')).toHaveLength(1);
    });
  });

  describe('what a setup session never opens', () => {
    it.each([
      ['the members', 'get', '/api/org/members', undefined],
      ['the people', 'get', '/api/org/people', undefined],
      ['a member’s roles', 'put', '/api/org/members/someone/roles', { roles: [] }],
      ['the roles', 'post', '/api/org/roles', { key: 'helper', name: 'Helper', permissions: [] }],
      ['the invitations', 'post', '/api/org/invite', { email: 'new@example.com', role: 'member' }],
      ['the invitations', 'get', '/api/org/invitations', undefined],
      ['the audit trail', 'get', '/api/org/audit-events', undefined],
      ['the enforcement of single sign-on', 'patch', '/api/org/sso', { enforced: true }],
      ['a second link', 'post', '/api/org/setup-links', { intents: ['sso'] }],
      ['the links', 'get', '/api/org/setup-links', undefined],
      ['the org routes of its own steps', 'post', '/api/org/domains', { domain: 'elsewhere.test' }],
    ] as const)('%s (%s %s): 401, nothing written', async (_, method, path, body) => {
      const { cookie } = await openLink();
      const before = await t.dataSource.getRepository(SetupLinkEntity).count();
      const request = t.http[method](path).set('Cookie', cookie);
      const res = await (body ? request.send(body) : request);
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
      expect(await t.dataSource.getRepository(SetupLinkEntity).count()).toBe(before);
    });
  });

  describe('an intent the link does not grant', () => {
    it.each([
      ['domain', 'post', '/api/setup/domains', ['sso', 'scim']],
      ['sso', 'get', '/api/setup/sso/connections', ['domain']],
      ['sso', 'post', '/api/setup/sso/connections', ['domain', 'scim']],
      ['scim', 'post', '/api/setup/scim/tokens', ['domain', 'sso']],
      ['scim', 'put', '/api/setup/scim/role-mapping', ['sso']],
    ] as const)('%s (%s %s): 403 SETUP_INTENT_NOT_GRANTED, nothing written', async (intent, method, path, intents) => {
      const { cookie } = await openLink([...intents]);
      const request = t.http[method](path).set('Cookie', cookie);
      const res = await (method === 'get' ? request : invalidRequest(request.send({})));
      expect([res.status, res.body]).toEqual([
        403,
        setupRefused('SETUP_INTENT_NOT_GRANTED', `this link does not grant "${intent}"`),
      ]);
      expect(await events('scim.token_created')).toEqual([]);
    });
  });
});

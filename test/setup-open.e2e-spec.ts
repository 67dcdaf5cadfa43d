import { invalidRequest } from './support/documented-http';
import { newInviter } from './support/inviting';
import { setupCookieOf, useSetupLinksSuite } from './support/setup-links';

/** Opening a setup link (docs/setup-links.md): the setup session, the forward to /setup, and the links that do not open. */
describe('setup links: GET /setup/{token}', () => {
  const { t, org, createLink, tokenOf, open, openLink, linkRow, expireLink, revokeLink, suspend, events } =
    useSetupLinksSuite();

  const newLink = async () => {
    const { link } = (await createLink()).body;
    return { id: link.id as string, token: await tokenOf(link.id) };
  };
  /** A page's headers: the invitation page's policy, no Referer, no caching, no indexing. */
  const expectPageHeaders = (headers: Record<string, string>) => {
    expect(headers['content-type']).toMatch(/^text\/html/);
    expect(headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'nonce-[^']+'; style-src/);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-robots-tag']).toBe('noindex');
  };

  it('an open link: 200, the setup session’s cookie (HttpOnly, SameSite=Strict, Path=/, no longer than the link), a page that forwards to /setup', async () => {
    const { id, token } = await newLink();
    const res = await open(token);
    expect(res.status).toBe(200);
    expectPageHeaders(res.headers);
    const [cookie] = res.headers['set-cookie'] as unknown as string[];
    expect(cookie).toMatch(/^setup_session=[^;]+; Path=\/; Max-Age=(\d+); HttpOnly; SameSite=Strict$/);
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)![1]);
    const remaining = ((await linkRow(id)).expiresAt.getTime() - Date.now()) / 1000;
    expect(maxAge).toBeLessThanOrEqual(remaining);
    expect(maxAge).toBeGreaterThan(remaining - 60);
    expect(cookie).not.toContain(token);
    expect(res.text).toContain('<meta http-equiv="refresh" content="0; url=/setup">');
    expect(res.text).toContain('<a href="/setup">Continue to the setup</a>');
    expect(res.text).not.toContain(token);
    expect(res.text).not.toContain('Acme');
  });

  it('each opening is a setup_link.opened event with the client’s address, and sets lastOpenedAt; the link opens again', async () => {
    const { id, token } = await newLink();
    expect((await open(token)).status).toBe(200);
    const second = await open(token);
    expect(second.status).toBe(200);
    expect(setupCookieOf(second)).toMatch(/^setup_session=/);
    const opened = await events('setup_link.opened');
    expect(opened).toHaveLength(2);
    expect(opened[0]).toMatchObject({
      targetId: id,
      actorId: `setup_link:${id}`,
      data: { ip: expect.stringMatching(/127\.0\.0\.1/), via: { setupLink: id } },
    });
    expect(JSON.stringify(opened)).not.toContain(token);
    expect((await linkRow(id)).lastOpenedAt).not.toBeNull();
  });

  it.each([
    ['a token of the right shape that no link has', 'A'.repeat(43)],
    ['a malformed token', 'not-a-token'],
  ])('%s: 404, a page saying the link is not valid; no cookie', async (_, token) => {
    const res = await open(token);
    expect(res.status).toBe(404);
    expectPageHeaders(res.headers);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('<h1>This setup link is not valid</h1>');
  });

  it('an expired link: 410, a page saying so; its setup_link.expired event once; not opened', async () => {
    const { id, token } = await newLink();
    await expireLink(id);
    const res = await open(token);
    await open(token);
    expect(res.status).toBe(410);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('<h1>This setup link has expired</h1>');
    expect(await events('setup_link.expired')).toHaveLength(1);
    expect(await events('setup_link.opened')).toHaveLength(0);
    expect((await linkRow(id)).lastOpenedAt).toBeNull();
  });

  it('a revoked link: 410, a page saying it was revoked', async () => {
    const { id, token } = await newLink();
    await revokeLink(id);
    const res = await open(token);
    expect(res.status).toBe(410);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('<h1>This setup link was revoked</h1>');
  });

  it('a completed link: 410, a page saying the setup is complete', async () => {
    const { token, cookie } = await openLink();
    expect((await t.http.post('/api/setup/complete').set('Cookie', cookie)).status).toBe(200);
    const res = await open(token);
    expect(res.status).toBe(410);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('<h1>This setup is complete</h1>');
  });

  it('a suspended organisation’s link does not open: 403, a page with no detail of the organisation', async () => {
    const { token } = await newLink();
    await suspend();
    const res = await open(token);
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('<h1>This setup link cannot be used now</h1>');
    expect(res.text).not.toMatch(/Acme|suspend/i);
  });

  it('another organisation’s link opens for that organisation alone', async () => {
    const other = await newInviter(t, { name: 'Globex', status: 'active' });
    const { link } = (await createLink({ intents: ['sso'] }, other.cookie)).body;
    const cookie = setupCookieOf(await open(await tokenOf(link.id)));
    const res = await t.http.get('/api/setup').set('Cookie', cookie);
    expect(res.body.organisation).toEqual({ id: other.tenant.id, name: 'Globex' });
    expect(res.body.organisation.id).not.toBe(org.tenant.id);
  });

  it('only GET opens a link: POST /setup/{token} is not a route', async () => {
    const { token } = await newLink();
    const res = await invalidRequest(t.http.post(`/setup/${token}`));
    expect(res.status).toBe(404);
    expect(await events('setup_link.opened')).toHaveLength(0);
  });
});

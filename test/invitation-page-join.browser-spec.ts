import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { axeViolations, DESKTOP, describeWithChromium, launchChromium, PHONE, screenshotDir } from './support/browser';
import { factories } from './support/factories';
import { PAGE_TEXT, pagePath } from './support/invitation-page';
import { freePort } from './support/server-process';
import { createTestApp, TestApp } from './support/test-app';
import { TestUser } from './support/test-identity';

/**
 * The invitation page with sessions, in Chromium: a visitor without a session is sent to sign in
 * (SIGN_IN_URL, a stand-in sign-in page) and comes back to the page; signed in with the invited
 * address, Accept and join makes them a member; signed in as someone else, they are told so.
 */
describeWithChromium('invitation page in Chromium: joining', () => {
  jest.setTimeout(60_000);

  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  let browser: Browser;
  let context: BrowserContext;
  let baseUrl: string;
  let signIn: Server;
  let signInUrl: string;
  const shots = screenshotDir('invitation-page-join');

  beforeAll(async () => {
    const signInPort = await freePort();
    signInUrl = `http://127.0.0.1:${signInPort}/sign-in`;
    signIn = createServer((_, response) =>
      response
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!DOCTYPE html><title>Sign in</title><h1>Sign in</h1>'),
    );
    await new Promise<void>((resolve) => signIn.listen(signInPort, '127.0.0.1', resolve));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { SIGN_IN_URL: signInUrl, PUBLIC_BASE_URL: baseUrl } });
    factory = factories(t);
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
    await new Promise((resolve) => signIn.close(resolve));
  });
  afterEach(async () => {
    await context?.close();
    jest.restoreAllMocks();
  });

  const stored = (id: string) => t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id });
  const heading = (page: Page) => page.locator('h1').innerText();
  /** A user without an organisation and an invitation of Acme to their address. */
  const invitee = async (role = 'admin') => {
    const tenant = await factory.tenant({ name: 'Acme' });
    const user = await factory.user();
    const invitation = await factory.invitation({ tenantId: tenant.id, email: user.email, role });
    return { tenant, user, invitation };
  };
  /** A fresh browser context, signed in as `user` when given: the session cookie on the service's host. */
  async function newPage(user?: TestUser): Promise<Page> {
    context = await browser.newContext({ viewport: DESKTOP });
    if (user) {
      const value = await t.testIdentity.sessionToken(user);
      await context.addCookies([
        { name: t.config.sessionCookieName, value, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
      ]);
    }
    return context.newPage();
  }
  async function checkAndPhotograph(page: Page, state: string): Promise<void> {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: join(shots, `${state}-${size}.png`), fullPage: true });
    }
    await page.setViewportSize(DESKTOP);
  }

  it('no session: "Sign in to accept" leads to sign-in, this page as return_to; signed in, Accept and join makes a member', async () => {
    const { tenant, user, invitation } = await invitee();
    let page = await newPage();
    await page.goto(`${baseUrl}${pagePath(invitation.id)}`);
    expect(await heading(page)).toBe(PAGE_TEXT.invited('Acme'));
    expect(await page.locator('button').count()).toBe(0);
    await checkAndPhotograph(page, '1-sign-in-to-accept');
    await page.getByRole('link', { name: PAGE_TEXT.signInLink }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    const returnTo = new URL(page.url()).searchParams.get('return_to');
    expect(returnTo).toBe(`${baseUrl}${pagePath(invitation.id)}`);
    await context.close();

    // Signed in (the sign-in service set the session cookie), the visitor comes back.
    page = await newPage(user);
    await page.goto(returnTo!);
    expect(await heading(page)).toBe(PAGE_TEXT.invited('Acme'));
    await checkAndPhotograph(page, '2-accept-and-join');
    await page.getByRole('button', { name: PAGE_TEXT.joinButton }).click();
    await page.getByRole('heading', { name: PAGE_TEXT.member('Acme') }).waitFor();
    expect(await page.locator('main').innerText()).toContain(PAGE_TEXT.joined('Acme', 'admin'));
    expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
    await checkAndPhotograph(page, '3-joined');
    expect((await stored(invitation.id)).status).toBe('accepted');
    expect(await t.identity.findById(user.id)).toMatchObject({ userType: 'org', tenantId: tenant.id, role: 'admin' });
  });

  it('without JavaScript: the form POST joins as well', async () => {
    const { tenant, user, invitation } = await invitee('member');
    context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    await context.addCookies([
      { name: t.config.sessionCookieName, value: await t.testIdentity.sessionToken(user), url: baseUrl },
    ]);
    const page = await context.newPage();
    await page.goto(`${baseUrl}${pagePath(invitation.id)}`);
    // The page's Referrer-Policy makes Chromium send `Origin: null` with this POST: Sec-Fetch-Site vouches for it.
    await page.getByRole('button', { name: PAGE_TEXT.joinButton }).click();
    await page.getByRole('heading', { name: PAGE_TEXT.member('Acme') }).waitFor();
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: tenant.id, role: 'member' });
  });

  it('signed in as someone else: told that the invitation is for another address, with no button; nothing changes', async () => {
    const { invitation } = await invitee();
    const page = await newPage(await factory.user({ email: 'mallory@example.com' }));
    await page.goto(`${baseUrl}${pagePath(invitation.id)}`);
    expect(await heading(page)).toBe(PAGE_TEXT.otherAddress);
    expect(await page.locator('main').innerText()).toContain('mallory@example.com');
    expect(await page.locator('main').innerText()).not.toContain(invitation.email);
    expect(await page.locator('button').count()).toBe(0);
    await checkAndPhotograph(page, '4-another-address');
    expect((await stored(invitation.id)).status).toBe('pending');
  });

  it('a tenant named with HTML is shown as text on the joined page too', async () => {
    const name = `<img src=x onerror="alert('img')">`;
    const tenant = await factory.tenant({ name });
    const user = await factory.user();
    const invitation = await factory.invitation({ tenantId: tenant.id, email: user.email });
    const page = await newPage(user);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${baseUrl}${pagePath(invitation.id)}`);
    await page.getByRole('button', { name: PAGE_TEXT.joinButton }).click();
    await page.getByRole('heading', { name: PAGE_TEXT.member(name) }).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(await t.dataSource.getRepository(TenantEntity).countBy({ id: tenant.id })).toBe(1);
  });
});

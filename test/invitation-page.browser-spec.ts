import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { InvitationsService } from '../src/invitations/invitations.service';
import { axeViolations, DESKTOP, describeWithChromium, launchChromium, PHONE, screenshotDir } from './support/browser';
import { factories } from './support/factories';
import { PAGE_TEXT, pagePath } from './support/invitation-page';
import { createTestApp, TestApp } from './support/test-app';

const DAY = 24 * 3600 * 1000;

/**
 * Issue 13: the page that the invitation link opens, in Debian's Chromium driven by
 * playwright-core, against the app served on a real port (SQLite; run once, project `browser`).
 * Each state is scanned by axe-core and photographed at desktop and phone sizes.
 */
describeWithChromium('invitation page in Chromium (issue 13)', () => {
  jest.setTimeout(60_000);

  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  let browser: Browser;
  let baseUrl: string;
  let context: BrowserContext;
  const shots = screenshotDir('invitation-page');

  beforeAll(async () => {
    t = await createTestApp();
    factory = factories(t);
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });
  afterEach(async () => {
    await context?.close();
    jest.restoreAllMocks();
  });

  const stored = (id: string) => t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id });
  const invitationIn = async (
    tenant: Partial<TenantEntity> = { name: 'Acme' },
    invitation: Partial<InvitationEntity> = {},
  ) => factory.invitation({ tenantId: (await factory.tenant(tenant)).id, ...invitation });

  /** What a page did that a test must be able to see: CSP reports, dialogs, POSTs. */
  interface Watched {
    cspViolations: string[];
    dialogs: string[];
    posts: { resourceType: string; url: string }[];
  }

  /** Opens a path in a fresh context (its own cookies and cache). */
  async function open(path: string, options: { javaScript?: boolean } = {}): Promise<{ page: Page; watched: Watched }> {
    context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: options.javaScript ?? true });
    const page = await context.newPage();
    const watched: Watched = { cspViolations: [], dialogs: [], posts: [] };
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) watched.cspViolations.push(message.text());
    });
    page.on('dialog', (dialog) => {
      watched.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      if (request.method() === 'POST') watched.posts.push({ resourceType: request.resourceType(), url: request.url() });
    });
    await page.goto(`${baseUrl}${path}`);
    return { page, watched };
  }

  const heading = (page: Page) => page.locator('h1').innerText();
  const acceptButton = (page: Page) => page.getByRole('button', { name: PAGE_TEXT.acceptButton });

  /**
   * The page as it stands, at desktop and at phone size: axe-core finds no violation, nothing is
   * wider than a phone's screen, and a screenshot of each is written for a person to look at.
   * A page without JavaScript cannot be scanned (evaluation needs it): it is photographed only.
   */
  async function checkAndPhotograph(page: Page, state: string, { scan = true } = {}): Promise<void> {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      if (scan) {
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      }
      await page.screenshot({ path: join(shots, `${state}-${size}.png`), fullPage: true });
    }
    await page.setViewportSize(DESKTOP);
  }

  describe('GET /invitations/{token}', () => {
    it('a valid invitation shows its organisation, address, role, expiry and Accept; the row stays pending', async () => {
      const invitation = await invitationIn(
        { name: 'Acme Ltd' },
        { role: 'admin', expiresAt: new Date('2036-05-04T03:02:01Z') },
      );
      const { page, watched } = await open(pagePath(invitation.id));
      expect(await heading(page)).toBe(PAGE_TEXT.invited('Acme Ltd'));
      expect(await page.locator('dt').allInnerTexts()).toEqual(['Organisation', 'Invited address', 'Role', 'Expires']);
      expect(await page.locator('dd').allInnerTexts()).toEqual([
        'Acme Ltd',
        invitation.email,
        'admin',
        '4 May 2036 at 03:02 UTC',
      ]);
      await expect(acceptButton(page).isVisible()).resolves.toBe(true);
      await checkAndPhotograph(page, '1-invitation');
      expect(watched.cspViolations).toEqual([]);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('an expired invitation: the expired message, no button, and the row is stored expired', async () => {
      const invitation = await invitationIn({}, { expiresAt: new Date(Date.now() - DAY) });
      const { page } = await open(pagePath(invitation.id));
      expect(await heading(page)).toBe(PAGE_TEXT.expired);
      expect(await page.locator('button').count()).toBe(0);
      await checkAndPhotograph(page, '4-expired');
      expect((await stored(invitation.id)).status).toBe('expired');
    });

    it('an unknown token: the not-valid message, no button', async () => {
      const { page } = await open(pagePath('0b6f1d1e-3c1a-4d4e-9a53-6f7f2b2f5a10'));
      expect(await heading(page)).toBe(PAGE_TEXT.invalid);
      expect(await page.locator('button').count()).toBe(0);
      await checkAndPhotograph(page, '5-invalid');
    });

    it('an organisation named with HTML is shown as text: no element, no script run', async () => {
      const name = `<img src=x onerror="alert('img')"><script>alert('script')</script>`;
      const invitation = await invitationIn({ name });
      const { page, watched } = await open(pagePath(invitation.id));
      expect(await heading(page)).toBe(PAGE_TEXT.invited(name));
      expect(await page.locator('dd').first().innerText()).toBe(name);
      expect(await page.locator('img').count()).toBe(0);
      await checkAndPhotograph(page, '6-html-injection');
      expect(watched.dialogs).toEqual([]);
    });
  });

  describe('Accept', () => {
    it('with JavaScript: accepted in place (one background POST, no navigation), success text, focus on the heading', async () => {
      const invitation = await invitationIn({ name: 'Acme' }, { role: 'member' });
      const { page, watched } = await open(pagePath(invitation.id));
      await acceptButton(page).click();
      await page.getByRole('heading', { name: PAGE_TEXT.accepted }).waitFor();
      expect(await page.locator('main').innerText()).toContain(PAGE_TEXT.joined('Acme', 'member'));
      expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
      expect(await page.title()).toBe(PAGE_TEXT.accepted);
      expect(watched.posts).toEqual([{ resourceType: 'fetch', url: `${baseUrl}${pagePath(invitation.id)}` }]);
      expect(watched.cspViolations).toEqual([]);
      expect(await stored(invitation.id)).toEqual({ ...invitation, status: 'accepted' });
      await checkAndPhotograph(page, '2-accepted');

      await page.reload();
      expect(await heading(page)).toBe(PAGE_TEXT.alreadyUsed);
      expect(await page.locator('button').count()).toBe(0);
      await checkAndPhotograph(page, '3-already-used');
    });

    it('with the keyboard alone: the first Tab reaches Accept, Enter accepts', async () => {
      const invitation = await invitationIn();
      const { page } = await open(pagePath(invitation.id));
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.textContent')).toBe(PAGE_TEXT.acceptButton);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: PAGE_TEXT.accepted }).waitFor();
      expect((await stored(invitation.id)).status).toBe('accepted');
    });

    it('without JavaScript: the form POST accepts, and the answer is the success page', async () => {
      const invitation = await invitationIn({ name: 'Acme' }, { role: 'admin' });
      const { page, watched } = await open(pagePath(invitation.id), { javaScript: false });
      // The click waits for the navigation that the form POST starts.
      await acceptButton(page).click();
      await page.waitForLoadState();
      expect(await heading(page)).toBe(PAGE_TEXT.accepted);
      expect(await page.locator('main').innerText()).toContain(PAGE_TEXT.joined('Acme', 'admin'));
      expect(watched.posts).toEqual([{ resourceType: 'document', url: `${baseUrl}${pagePath(invitation.id)}` }]);
      expect(await stored(invitation.id)).toEqual({ ...invitation, status: 'accepted' });
      await checkAndPhotograph(page, '2-accepted-without-javascript', { scan: false });
    });

    it('an unexpected failure: "Something went wrong, try again"; Try again shows the invitation again', async () => {
      const invitation = await invitationIn();
      jest.spyOn(t.app.get(InvitationsService), 'accept').mockRejectedValueOnce(new Error('connection lost'));
      const { page } = await open(pagePath(invitation.id));
      await acceptButton(page).click();
      await page.getByRole('heading', { name: PAGE_TEXT.failed }).waitFor();
      expect((await stored(invitation.id)).status).toBe('pending');
      await checkAndPhotograph(page, '7-failed');

      await page.getByRole('link', { name: 'Try again' }).click();
      await acceptButton(page).waitFor();
      expect(await heading(page)).toBe(PAGE_TEXT.invited('Acme'));
    });
  });
});

import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { InvitationEntity } from '../src/database/entities';
import { axeViolations, DESKTOP, describeWithChromium, launchChromium, PHONE, screenshotDir } from './support/browser';
import { factories, sessionCookie } from './support/factories';
import { PAGE_TEXT, pagePath } from './support/invitation-page';
import { createTestApp, TestApp } from './support/test-app';

const SUSPENDED = 'This organisation is suspended';

/** The invitation page of a suspended organisation (docs/tenant-lifecycle.md), in Debian's Chromium. */
describeWithChromium('invitation page of a suspended organisation, in Chromium', () => {
  jest.setTimeout(60_000);

  let t: TestApp;
  let browser: Browser;
  let baseUrl: string;
  let context: BrowserContext;
  let rootCookie: string;
  const shots = screenshotDir('invitation-page-suspended');

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    rootCookie = await sessionCookie(t, await factories(t).superAdmin());
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });
  afterEach(() => context?.close());

  const invitationOfActiveTenant = async () => {
    const factory = factories(t);
    return factory.invitation({ tenantId: (await factory.tenant({ name: 'Acme', status: 'active' })).id });
  };
  const suspend = async (tenantId: string) =>
    expect((await t.http.post(`/api/admin/tenants/${tenantId}/suspend`).set('Cookie', rootCookie)).status).toBe(200);
  const stored = (id: string) => t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id });

  async function open(path: string): Promise<Page> {
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    return page;
  }

  async function checkAndPhotograph(page: Page, state: string): Promise<void> {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, `${state}-${size}.png`), fullPage: true });
    }
  }

  it('says that the organisation is suspended, with no Accept button; the invitation stays pending', async () => {
    const invitation = await invitationOfActiveTenant();
    await suspend(invitation.tenantId);
    const page = await open(pagePath(invitation.id));
    expect(await page.locator('h1').innerText()).toBe(SUSPENDED);
    expect(await page.locator('button').count()).toBe(0);
    await checkAndPhotograph(page, '1-suspended');
    expect((await stored(invitation.id)).status).toBe('pending');
  });

  it('the Accept button of a page opened before the suspension shows the suspension in place, and accepts nothing', async () => {
    const invitation = await invitationOfActiveTenant();
    const page = await open(pagePath(invitation.id));
    expect(await page.locator('h1').innerText()).toBe(PAGE_TEXT.invited('Acme'));
    await suspend(invitation.tenantId);
    await page.getByRole('button', { name: PAGE_TEXT.acceptButton }).click();
    await page.getByRole('heading', { name: SUSPENDED }).waitFor();
    expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
    await checkAndPhotograph(page, '2-accept-refused');
    expect((await stored(invitation.id)).status).toBe('pending');
  });
});

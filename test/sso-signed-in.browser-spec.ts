import type { Browser } from 'playwright-core';
import { describeWithChromium, launchChromium } from './support/browser';
import { factories, sessionCookie } from './support/factories';
import { freePort } from './support/server-process';
import { createTestApp, TestApp } from './support/test-app';

/**
 * docs/sso.md, "Where a sign-in lands", in Debian's Chromium: the signed-in page says who is signed in
 * to which organisation, and its button signs out through POST /api/me/sign-out, back to the page.
 */
describeWithChromium('single sign-on: the signed-in page, in Chromium', () => {
  jest.setTimeout(60_000);

  let t: TestApp;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { PUBLIC_BASE_URL: baseUrl } });
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('“Signed in as … to …”; Sign out ends the session, and the page then says nobody is signed in', async () => {
    const factory = factories(t);
    const tenant = await factory.tenant({ name: 'Acme', status: 'active' });
    const member = await factory.member(tenant.id, { role: 'member', email: 'kim@acme.test' });
    const [name, value] = (await sessionCookie(t, member)).split(/=(.*)/s);
    const context = await browser.newContext();
    await context.addCookies([{ name, value, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/sso/signed-in`);
    expect(await page.textContent('main p')).toBe('Signed in as kim@acme.test to Acme.');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${baseUrl}/sso/signed-in`);
    expect(await page.textContent('main p')).toBe('You are not signed in.');
    expect(await context.cookies(baseUrl)).toEqual([]);
    await context.close();
  });
});

import { TenantEntity } from '../src/database/entities';
import { eventually } from './support/eventually';
import { newInviter } from './support/inviting';
import { SETUP_TEST_MODE_KEY, setupCookieOf } from './support/setup-links';
import { createTestApp, TestApp } from './support/test-app';

/**
 * A setup link's token and its session are in no log line (docs/setup-links.md): not the opening's
 * request line, not the e-mail logged without SMTP_URL, not the test mode read-back's.
 */
describe('setup links: the logs', () => {
  let t: TestApp;
  let written: string[];

  beforeAll(async () => {
    written = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(chunk.toString());
      return true;
    });
    t = await createTestApp({
      env: { LOG_LEVEL: 'debug', TEST_MODE: 'true', TEST_MODE_KEY: SETUP_TEST_MODE_KEY, OUTBOX_POLL_INTERVAL_MS: '50' },
    });
  });
  afterAll(async () => {
    await t.close();
    jest.restoreAllMocks();
  });

  it('the token, the URL and the setup session’s value are never written; the opening’s line masks the token', async () => {
    const owner = await newInviter(t);
    await t.dataSource.getRepository(TenantEntity).update({ id: owner.tenant.id }, { status: 'active' });
    const created = await t.http
      .post('/api/org/setup-links')
      .set('Cookie', owner.cookie)
      .send({ intents: ['domain', 'scim'], email: 'it@acme.example' });
    expect(created.status).toBe(201);
    const { url, id } = created.body.link;
    const token = url.slice(url.lastIndexOf('/') + 1);
    expect((await t.http.get(`/api/test/setup-links/${id}`).set('X-Test-Mode-Key', SETUP_TEST_MODE_KEY)).status).toBe(
      200,
    );
    const opened = await t.http.get(`/setup/${token}`);
    const session = setupCookieOf(opened).split('=')[1];
    expect((await t.http.get('/api/setup').set('Cookie', setupCookieOf(opened))).status).toBe(200);
    // The link's e-mail, logged without SMTP_URL, with its token masked.
    await eventually(() => expect(written.join('')).toContain('Subject: Set up your e-mail domain, SCIM provisioning'));
    const output = written.join('');
    expect(output).toContain('/setup/[REDACTED]');
    expect(output).toContain(`${url.slice(0, url.lastIndexOf('/'))}/<token>`);
    expect(output).not.toContain(token);
    expect(output).not.toContain(session);
  });
});

import { eventually } from './support/eventually';
import { factories } from './support/factories';
import { newInviter } from './support/inviting';
import { sample } from './support/prometheus';
import { createTestApp, TestApp } from './support/test-app';
import { invalidRequest } from './support/documented-http';

const DAY = 24 * 3600 * 1000;

/** GET /metrics in Prometheus format. */
describe('metrics (GET /metrics)', () => {
  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  const scrape = async () => (await t.http.get('/metrics').expect(200)).text;

  beforeAll(async () => {
    t = await createTestApp();
    factory = factories(t);
  });
  afterAll(() => t.close());

  it('answers Prometheus text with the process metrics, no session needed', async () => {
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect(res.text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(res.text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('exports every business counter from the start, e-mails by result', async () => {
    const text = await scrape();
    for (const series of [
      'invitations_created_total',
      'invitations_accepted_total',
      'invitations_expired_total',
      'invitation_emails_total{result="sent"}',
      'invitation_emails_total{result="failed"}',
      'invite_rate_limited_total',
      'webhook_deliveries_total{outcome="delivered"}',
      'webhook_deliveries_total{outcome="retried"}',
      'webhook_deliveries_total{outcome="failed"}',
      'webhook_oldest_pending_delivery_age_seconds',
    ]) {
      expect(sample(text, series)).toBe(0);
    }
  });

  it('counts and times requests by method, route pattern and status, never by raw URL', async () => {
    const invitation = await factory.invitation();
    await t.http.get(`/api/invitations/${invitation.id}`).expect(200);
    await t.http.get('/api/invitations/no-such-token').expect(404);
    await t.http.get('/api/invitations/another-unknown-token').expect(404);
    await invalidRequest(() => t.http.get('/api/nothing-here').expect(404));
    const text = await scrape();
    const route = 'method="GET",route="/api/invitations/:token"';
    expect(sample(text, `http_requests_total{${route},status_code="200"}`)).toBe(1);
    expect(sample(text, `http_requests_total{${route},status_code="404"}`)).toBe(2);
    expect(sample(text, `http_request_duration_seconds_count{${route},status_code="404"}`)).toBe(2);
    expect(sample(text, `http_request_duration_seconds_bucket{le="+Inf",${route},status_code="404"}`)).toBe(2);
    expect(sample(text, 'http_requests_total{method="GET",route="unmatched",status_code="404"}')).toBe(1);
    expect(text).not.toContain(invitation.id);
    expect(text).not.toContain('no-such-token');
  });

  it('counts accepted invitations, and each expiry once however often it is read', async () => {
    const before = await scrape();
    const pending = await factory.invitation();
    const expired = await factory.invitation({ expiresAt: new Date(Date.now() - DAY) });
    await t.http.post(`/api/invitations/${pending.id}`).expect(200);
    await t.http.post(`/api/invitations/${pending.id}`).expect(400);
    await t.http.get(`/api/invitations/${expired.id}`).expect(400);
    await t.http.get(`/api/invitations/${expired.id}`).expect(400);
    await t.http.post(`/api/invitations/${expired.id}`).expect(400);
    const after = await scrape();
    expect(sample(after, 'invitations_accepted_total')! - sample(before, 'invitations_accepted_total')!).toBe(1);
    expect(sample(after, 'invitations_expired_total')! - sample(before, 'invitations_expired_total')!).toBe(1);
  });

  it('counts invitations created, their e-mails, and refusals by the rate limit', async () => {
    const limited = await createTestApp({ env: { INVITE_RATE_LIMIT: '1', OUTBOX_POLL_INTERVAL_MS: '50' } });
    try {
      const { cookie } = await newInviter(limited);
      const invite = (email: string) =>
        limited.http.post('/api/org/invite').set('Cookie', cookie).send({ email, role: 'member' });
      await invite('first@example.com').expect(200);
      await invite('second@example.com').expect(429);
      const text = () => limited.http.get('/metrics').then((res) => res.text);
      expect(sample(await text(), 'invitations_created_total')).toBe(1);
      expect(sample(await text(), 'invite_rate_limited_total')).toBe(1);
      // Without SMTP_URL the e-mail is composed and logged: that counts as sent.
      await eventually(async () => expect(sample(await text(), 'invitation_emails_total{result="sent"}')).toBe(1));
    } finally {
      await limited.close();
    }
  });

  it('each app instance has its own registry: two in one process count apart', async () => {
    const other = await createTestApp();
    try {
      const invitation = await factories(other).invitation();
      await other.http.post(`/api/invitations/${invitation.id}`).expect(200);
      const mine = sample(await scrape(), 'invitations_accepted_total');
      const theirs = sample((await other.http.get('/metrics')).text, 'invitations_accepted_total');
      expect(theirs).toBe(1);
      expect(mine).toBe(1); // from the test above, not the other instance's
    } finally {
      await other.close();
    }
  });
});

import { AuditEventEntity, NoticeEmailOutboxEntity, TenantEntity } from '../../src/database/entities';
import { SetupLinkEntity, SetupLinkItemEntity } from '../../src/database/entities/setup-link.entity';
import { useDomainsSuite } from './domains';
import { SmtpCatcher } from './smtp-catcher';
import { SSO_BASE } from './sso';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from './webhook-receiver';

/** The service's address in the setup-link suites (PUBLIC_BASE_URL): the links' base. */
export const SETUP_BASE = SSO_BASE;
export const SETUP_TEST_MODE_KEY = 'setup-links-test-mode-key-0123456789';
export const ALL_INTENTS = ['domain', 'sso', 'scim'];

/** A setup-link refusal: `{success:false, error, reason}`. */
export const setupRefused = (error: string, reason: unknown = expect.any(String)) => ({
  success: false,
  error,
  reason,
});

type Answer = { headers: Record<string, unknown> };

/** The `Cookie` header of the setup session that an opening set. */
export function setupCookieOf(res: Answer): string {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const cookie = cookies.find((line) => line.startsWith('setup_session='));
  if (!cookie) throw new Error(`no setup session cookie in ${JSON.stringify(cookies)}`);
  return cookie.split(';')[0];
}

/**
 * useDomainsSuite (the loopback DNS, an active organisation, its owner) with test mode on, an SMTP
 * server and a webhook receiver on the loopback that the app sends to, and the setup links as the owner and the IT
 * admin use them: `const { t, org, createLink, openLink } = useSetupLinksSuite();`.
 */
export function useSetupLinksSuite(env: Record<string, string> = {}) {
  let smtp: SmtpCatcher | undefined;
  let webhooks: WebhookReceiver | undefined;
  const appEnv: Record<string, string> = {
    TEST_MODE: 'true',
    TEST_MODE_KEY: SETUP_TEST_MODE_KEY,
    PUBLIC_BASE_URL: SETUP_BASE,
    WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    WEBHOOK_POLL_INTERVAL_MS: '50',
    ...env,
  };
  // Before the app starts: it reads the servers' addresses.
  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    webhooks = await WebhookReceiver.start();
    appEnv.SMTP_URL = smtp.url;
    appEnv.WEBHOOK_URLS = webhooks.url;
  });
  afterAll(async () => {
    await smtp?.stop();
    await webhooks?.stop();
  });
  const suite = useDomainsSuite(appEnv);
  const { t, org } = suite;

  const createLink = (body: object = { intents: ALL_INTENTS }, cookie = org.ownerCookie) =>
    t.http.post('/api/org/setup-links').set('Cookie', cookie).send(body);
  const listLinks = (cookie = org.ownerCookie) => t.http.get('/api/org/setup-links').set('Cookie', cookie);
  const revokeLink = (id: string, cookie = org.ownerCookie) =>
    t.http.delete(`/api/org/setup-links/${id}`).set('Cookie', cookie);
  const tokenOf = async (id: string): Promise<string> => {
    const res = await t.http.get(`/api/test/setup-links/${id}`).set('X-Test-Mode-Key', SETUP_TEST_MODE_KEY);
    expect(res.status).toBe(200);
    return res.body.token;
  };
  const open = (token: string) => t.http.get(`/setup/${token}`);
  /** A link made by the owner and opened by the IT admin: its id, token and the setup session's cookie. */
  const openLink = async (intents: string[] = ALL_INTENTS) => {
    const created = await createLink({ intents });
    expect(created.status).toBe(201);
    const id: string = created.body.link.id;
    const token = await tokenOf(id);
    const opened = await open(token);
    expect(opened.status).toBe(200);
    return { id, token, cookie: setupCookieOf(opened) };
  };
  const linkRow = (id: string) => t.dataSource.getRepository(SetupLinkEntity).findOneByOrFail({ id });
  const itemsOf = (linkId: string) => t.dataSource.getRepository(SetupLinkItemEntity).findBy({ linkId });
  const expireLink = (id: string) =>
    t.dataSource.getRepository(SetupLinkEntity).update({ id }, { expiresAt: new Date('2000-01-01T00:00:00Z') });
  const suspend = () => t.dataSource.getRepository(TenantEntity).update({ id: org.tenant.id }, { status: 'suspended' });
  /** The organisation's events of a type, oldest first, their data parsed. */
  const events = async (type: string, tenantId = org.tenant.id) =>
    (
      await t.dataSource
        .getRepository(AuditEventEntity)
        .find({ where: { type, tenantId }, order: { occurredAt: 'ASC' } })
    ).map((event) => ({ ...event, data: JSON.parse(event.data) as Record<string, unknown> }));
  const noticeRows = () => t.dataSource.getRepository(NoticeEmailOutboxEntity).find();
  const mails = (to: string) => smtp!.to(to);
  /** The webhooks received of an event type, their payloads' data. */
  const webhooksOf = (type: string) =>
    webhooks!.received.filter((hook) => hook.payload.type === type).map((hook) => hook.payload.data);
  return {
    ...suite,
    createLink,
    listLinks,
    revokeLink,
    tokenOf,
    open,
    openLink,
    linkRow,
    itemsOf,
    expireLink,
    suspend,
    events,
    noticeRows,
    mails,
    webhooksOf,
  };
}

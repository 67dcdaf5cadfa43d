import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InvitationEmailOutboxEntity } from '../src/database/entities';
import { eventually, outboxSettled } from './support/eventually';
import { Inviter, newInviter, timedInvite } from './support/inviting';
import { SmtpCatcher } from './support/smtp-catcher';
import { TcpProxy } from './support/tcp-proxy';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * Issue 5, item 7: the invitation e-mail goes through an outbox written with the invitation and
 * delivered by a background worker, so that a slow or absent mail server never affects the
 * response and no e-mail is lost or sent twice. The SMTP server sits behind a TCP proxy that
 * the tests cut off and slow down.
 */
describe('the invitation e-mail outbox', () => {
  let smtp: SmtpCatcher;
  let proxy: TcpProxy;
  let smtpUrl: string;
  const apps: TestApp[] = [];
  const databases: TestDatabase[] = [];
  const logged: string[] = [];
  const tokens: string[] = [];

  const start = async (database?: TestDatabase) => {
    const app = await createTestApp({ database, env: { SMTP_URL: smtpUrl, INVITE_RATE_LIMIT: '1000' } });
    apps.push(app);
    return app;
  };
  const outboxRows = (app: TestApp) => app.dataSource.getRepository(InvitationEmailOutboxEntity).find();
  const invite = async (app: TestApp, inviter: Inviter, email: string) => {
    const res = await timedInvite(app, inviter.cookie, email);
    if (res.status === 200) tokens.push(res.body.invitation.id);
    return res;
  };

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    ({ proxy, url: smtpUrl } = await TcpProxy.forUrl(smtp.url, 25));
  });
  beforeEach(() => {
    smtp.messages.length = 0;
    for (const level of ['log', 'warn', 'error'] as const) {
      jest
        .spyOn(Logger.prototype, level)
        .mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    }
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    proxy.latency(0);
    await proxy.reconnect();
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await Promise.all(databases.splice(0).map((database) => database.drop()));
  });
  afterAll(async () => {
    await proxy.close();
    await smtp.stop();
    // Tokens are secrets: no log line of the whole suite carries one.
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(logged.filter((line) => line.includes(token))).toEqual([]);
  });

  it('SMTP down when the invitation is made: 200 at once, retries, and the e-mail arrives once SMTP is back', async () => {
    const app = await start();
    const inviter = await newInviter(app);
    await proxy.disconnect('refuse');

    const res = await invite(app, inviter, 'while-down@example.com');
    expect(res.status).toBe(200);
    expect(res.ms).toBeLessThan(1_000);

    // The worker keeps trying, with backoff, while the server is away.
    const [failing] = await eventually(async () => {
      const rows = await outboxRows(app);
      expect(rows).toEqual([expect.objectContaining({ invitationId: res.body.invitation.id, status: 'pending' })]);
      expect(rows[0].attempts).toBeGreaterThanOrEqual(2);
      return rows;
    });
    expect(failing.lastError).toMatch(/ECONNREFUSED/);
    expect(smtp.messages).toEqual([]);
    expect(logged).toContainEqual(
      expect.stringMatching(
        /^Invitation e-mail to while-down@example\.com for tenant .* failed: .*ECONNREFUSED.*\(attempt 1 of 15; next in 0\.1s\)$/,
      ),
    );

    await proxy.reconnect();
    const [mail] = await eventually(() => {
      expect(smtp.to('while-down@example.com')).toHaveLength(1);
      return smtp.messages;
    });
    expect(mail.parsed.text).toContain(`/invitations/${res.body.invitation.id}`);
    await outboxSettled(app.dataSource);
    expect(await outboxRows(app)).toEqual([
      expect.objectContaining({ status: 'sent', sentAt: expect.any(Date), lastError: failing.lastError }),
    ]);
    expect(smtp.messages).toHaveLength(1);
  });

  it('a slow SMTP server does not slow the invite response', async () => {
    const app = await start();
    const inviter = await newInviter(app);
    // Every answer of the server comes 400 ms late: one message takes seconds to hand over.
    proxy.latency(400);

    const responses = [];
    for (let i = 0; i < 3; i++) responses.push(await invite(app, inviter, `slow-${i}@example.com`));
    const answered = Date.now();

    expect(responses.map((res) => res.status)).toEqual([200, 200, 200]);
    for (const res of responses) expect(res.ms).toBeLessThan(400);
    expect(smtp.messages).toEqual([]);
    await eventually(() => expect(smtp.messages).toHaveLength(3), { timeoutMs: 15_000 });
    expect(Date.now() - answered).toBeGreaterThan(1_000);
    expect(smtp.messages.map((mail) => mail.to[0]).sort()).toEqual([
      'slow-0@example.com',
      'slow-1@example.com',
      'slow-2@example.com',
    ]);
  });

  it('two instances on one database deliver each e-mail exactly once', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const [first, second] = [await start(database), await start(database)];
    const inviter = await newInviter(first);
    const count = 24;
    const recipients = Array.from({ length: count }, (_, i) => `fleet-${i}-${randomUUID().slice(0, 8)}@example.com`);

    // Half of them are made while SMTP is down, so that both workers retry the same rows and
    // race for them when it comes back; the rest are made with both workers polling.
    await proxy.disconnect('refuse');
    const early = await Promise.all(
      recipients.slice(0, count / 2).map((to, i) => invite(i % 2 ? first : second, inviter, to)),
    );
    await eventually(async () => expect((await outboxRows(first)).every((row) => row.attempts >= 1)).toBe(true));
    await proxy.reconnect();
    const late = await Promise.all(
      recipients.slice(count / 2).map((to, i) => invite(i % 2 ? first : second, inviter, to)),
    );
    expect([...early, ...late].map((res) => res.status)).toEqual(Array(count).fill(200));

    await eventually(() => expect(smtp.messages).toHaveLength(count), { timeoutMs: 15_000 });
    await outboxSettled(first.dataSource);
    expect(smtp.messages).toHaveLength(count);
    for (const to of recipients) expect(smtp.to(to)).toHaveLength(1);
    expect((await outboxRows(second)).map((row) => row.status)).toEqual(Array(count).fill('sent'));
  });
});

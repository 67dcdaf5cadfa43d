import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { memoryDataSource } from '../../../test/support/memory-data-source';
import { TestClock } from '../../../test/support/test-clock';
import { parseConfig } from '../../config/app-config';
import { Metrics } from '../../metrics/metrics';
import { InvitationEmailOutboxEntity, InvitationEntity, TenantEntity } from '../../database/entities';
import { InvitationEmail, InvitationMailer } from '../invitation-mailer';
import { SEND_TIMEOUT_MS } from '../mail.module';
import { MultiStatementPool } from '../../database/multi-statement-pool';
import { OutboxRows } from '../../database/outbox-rows';
import { PreparedStatements } from '../../database/prepared-statements';
import { TenantStatusReader } from '../../database/tenant-status-reader';
import { newOutboxRow } from './invitation-outbox';
import { OUTBOX_BATCH_SIZE, OUTBOX_CLAIM_MS, InvitationOutboxWorker } from './invitation-outbox.worker';

class FakeMailer extends InvitationMailer {
  sent: InvitationEmail[] = [];
  failures: Error[] = [];
  async send(email: InvitationEmail) {
    // Yield first, so that two workers' rounds interleave as they would against a real server.
    await new Promise((resolve) => setImmediate(resolve));
    const failure = this.failures.shift();
    if (failure) throw failure;
    this.sent.push(email);
  }
}

const NOW = new Date('2026-03-01T10:00:00.000Z');
const ENV = {
  OUTBOX_MAX_ATTEMPTS: '4',
  OUTBOX_RETRY_BASE_MS: '1000',
  OUTBOX_RETRY_MAX_MS: '3000',
  OUTBOX_POLL_INTERVAL_MS: '3600000',
};
let sequence = 0;
const token = () => `6f1c2c1e-8d7a-4b8e-9a51-${String(++sequence).padStart(12, '0')}`;

describe(InvitationOutboxWorker.name, () => {
  let dataSource: DataSource;
  let rows: Repository<InvitationEmailOutboxEntity>;
  let mailer: FakeMailer;
  let clock: TestClock;
  let logged: { warn: jest.SpyInstance; error: jest.SpyInstance; log: jest.SpyInstance };

  let metrics: Metrics;
  const worker = (env: Record<string, string> = ENV) => {
    const statements = new PreparedStatements(dataSource);
    return new InvitationOutboxWorker(
      dataSource,
      statements,
      new MultiStatementPool(dataSource),
      mailer,
      new TenantStatusReader(statements),
      clock,
      parseConfig(env),
      metrics,
    );
  };
  const emailsCounted = async () =>
    (await metrics.scrape()).split('\n').filter((line) => line.startsWith('invitation_emails_total'));

  /** Creates an invitation and its outbox row, as InvitationsStore does. */
  const invite = async (to = 'new@example.com', overrides: Partial<InvitationEntity> = {}) => {
    const invitation: InvitationEntity = {
      id: token(),
      tenantId: 'tenant-1',
      email: to,
      role: 'member',
      status: 'pending',
      expiresAt: new Date(clock.now().getTime() + 7 * 24 * 3600 * 1000),
      invitedBy: 'owner-1',
      createdAt: clock.now(),
      ...overrides,
    };
    const email = {
      to,
      tenantName: 'Acme',
      inviterEmail: 'owner@acme.example',
      role: 'member',
      expiresAt: invitation.expiresAt,
      link: `https://portal.example.com/invitations/${invitation.id}`,
    };
    await dataSource.getRepository(InvitationEntity).insert(invitation);
    await rows.insert(newOutboxRow(randomUUID(), invitation, email));
    return { invitation, email };
  };
  const only = async () => {
    const all = await rows.find();
    expect(all).toHaveLength(1);
    return all[0];
  };
  const lines = (spy: jest.SpyInstance) => spy.mock.calls.map((call) => String(call[0]));

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    rows = dataSource.getRepository(InvitationEmailOutboxEntity);
  });
  afterAll(() => dataSource.destroy());

  beforeEach(async () => {
    await rows.clear();
    await dataSource.getRepository(InvitationEntity).clear();
    mailer = new FakeMailer();
    metrics = new Metrics();
    clock = new TestClock(NOW);
    logged = {
      warn: jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined),
      error: jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined),
      log: jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined),
    };
  });
  afterEach(() => jest.restoreAllMocks());

  it('a claim outlasts the longest send, so that a live worker keeps its row', () => {
    expect(OUTBOX_CLAIM_MS).toBeGreaterThan(SEND_TIMEOUT_MS * 2);
  });

  it('sends a pending e-mail once and records it as sent', async () => {
    const { email } = await invite();
    const w = worker();
    await w.deliverDue();
    await w.deliverDue();

    expect(mailer.sent).toEqual([email]);
    expect(await only()).toMatchObject({
      status: 'sent',
      attempts: 1,
      sentAt: NOW,
      claimedBy: null,
      claimedUntil: null,
      lastError: null,
    });
  });

  it('retries a failed send with exponential backoff up to the cap, logging without the token', async () => {
    const { invitation, email } = await invite();
    mailer.failures.push(
      new Error(`550 rejected message with link ${email.link}`),
      new Error('421 try later'),
      new Error('421 try later'),
    );
    const w = worker();

    await w.deliverDue();
    expect(await only()).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: new Date(NOW.getTime() + 1_000),
      claimedBy: null,
    });
    expect((await only()).lastError).toBe(
      '550 rejected message with link https://portal.example.com/invitations/<token>',
    );
    expect(lines(logged.warn)).toEqual([
      'Invitation e-mail to new@example.com for tenant tenant-1 failed: ' +
        '550 rejected message with link https://portal.example.com/invitations/<token> (attempt 1 of 4; next in 1s)',
    ]);

    // Not due yet: nothing happens.
    clock.advance(999);
    await w.deliverDue();
    expect((await only()).attempts).toBe(1);

    clock.advance(1);
    await w.deliverDue();
    expect(await only()).toMatchObject({
      status: 'pending',
      attempts: 2,
      nextAttemptAt: new Date(clock.now().getTime() + 2_000),
    });
    clock.advance(2_000);
    await w.deliverDue();
    expect(await only()).toMatchObject({
      status: 'pending',
      attempts: 3,
      nextAttemptAt: new Date(clock.now().getTime() + 3_000),
    });
    clock.advance(3_000);
    await w.deliverDue();

    expect(mailer.sent).toEqual([email]);
    expect(await only()).toMatchObject({ status: 'sent', attempts: 4 });
    expect([...lines(logged.warn), ...lines(logged.error)].join('\n')).not.toContain(invitation.id);
    expect(await emailsCounted()).toEqual([
      'invitation_emails_total{result="sent"} 1',
      'invitation_emails_total{result="failed"} 3',
    ]);
  });

  it('after OUTBOX_MAX_ATTEMPTS failures marks the e-mail failed, logs an error and tries no more', async () => {
    const { invitation } = await invite();
    mailer.failures.push(...Array.from({ length: 5 }, () => new Error('connect ECONNREFUSED 127.0.0.1:25')));
    const w = worker();
    for (let i = 0; i < 6; i++) {
      await w.deliverDue();
      clock.advance(10_000);
    }
    expect(mailer.sent).toEqual([]);
    expect(mailer.failures).toHaveLength(1); // four attempts made
    expect(await only()).toMatchObject({
      status: 'failed',
      attempts: 4,
      lastError: 'connect ECONNREFUSED 127.0.0.1:25',
    });
    expect(lines(logged.warn)).toHaveLength(3);
    expect(lines(logged.error)).toEqual([
      expect.stringMatching(
        new RegExp(
          '^Invitation e-mail to new@example\\.com for tenant tenant-1 failed: connect ECONNREFUSED 127\\.0\\.0\\.1:25; ' +
            'given up after 4 attempt\\(s\\), outbox row [0-9a-f-]{36} is marked failed$',
        ),
      ),
    ]);
    expect(lines(logged.error)[0]).not.toContain(invitation.id);
  });

  it('does not send an e-mail whose invitation expired before it could be delivered', async () => {
    await invite('late@example.com', { expiresAt: new Date(NOW.getTime() + 1_000) });
    clock.advance(1_001);
    await worker().deliverDue();
    expect(mailer.sent).toEqual([]);
    expect(await only()).toMatchObject({
      status: 'failed',
      lastError: 'the invitation expired before the e-mail could be delivered',
    });
  });

  describe('the e-mails of a tenant in a state that the spec does not know', () => {
    const tenant = (status: string) =>
      dataSource
        .getRepository(TenantEntity)
        .save({ id: 'tenant-1', name: 'Acme', type: 'business', status, createdAt: NOW });
    afterEach(() => dataSource.getRepository(TenantEntity).clear());

    it("a suspended tenant's e-mail waits OUTBOX_RETRY_MAX_MS at a time, however long, without using up attempts", async () => {
      await tenant('suspended');
      const { email } = await invite();
      const w = worker();
      for (let check = 0; check < 6; check++) {
        await w.deliverDue();
        expect(await only()).toMatchObject({
          status: 'pending',
          attempts: 0,
          lastError: 'the organisation is suspended',
          claimedBy: null,
        });
        expect((await only()).nextAttemptAt).toEqual(new Date(clock.now().getTime() + 3_000));
        clock.advance(3_000);
      }
      expect(mailer.sent).toEqual([]);
      expect([...lines(logged.warn), ...lines(logged.error)]).toEqual([]);

      await tenant('active');
      await w.deliverDue();
      expect(mailer.sent).toEqual([email]);
      expect(await only()).toMatchObject({ status: 'sent', attempts: 1 });
    });

    it("a deleted tenant's e-mail is given up", async () => {
      await tenant('deleted');
      await invite();
      await worker().deliverDue();
      expect(mailer.sent).toEqual([]);
      expect(await only()).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'the organisation was deleted before the e-mail could be delivered',
      });
    });
  });

  it('two workers on one database send each e-mail exactly once', async () => {
    const count = OUTBOX_BATCH_SIZE * 2 + 3;
    for (let i = 0; i < count; i++) await invite(`n${i}@example.com`);
    const [first, second] = [worker(), worker()];
    for (let round = 0; round < 4; round++)
      await Promise.all([first.deliverDue(), second.deliverDue(), first.deliverDue()]);

    expect(mailer.sent.map((email) => email.to).sort()).toEqual(
      Array.from({ length: count }, (_, i) => `n${i}@example.com`).sort(),
    );
    expect(await rows.countBy({ status: 'sent', attempts: 1 })).toBe(count);
  });

  it('takes over a row whose claim has lapsed (its worker died), and leaves a live claim alone', async () => {
    const { email } = await invite();
    const claimedUntil = new Date(NOW.getTime() + 60_000);
    await rows.update(
      { status: 'pending' },
      { status: 'sending', claimedBy: 'dead-worker', claimedUntil, attempts: 1 },
    );
    const w = worker();

    await w.deliverDue();
    expect(mailer.sent).toEqual([]);

    clock.advance(60_001);
    await w.deliverDue();
    expect(mailer.sent).toEqual([email]);
    expect(await only()).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('when the database fails after a send, records it later and does not send it again', async () => {
    const { email } = await invite();
    const w = worker();
    jest
      .spyOn(OutboxRows.prototype, 'markDone')
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:3306'));

    await w.deliverDue();
    expect(mailer.sent).toEqual([email]);
    expect(await only()).toMatchObject({ status: 'sending', claimedBy: w.workerId });
    expect(lines(logged.error)).toEqual([
      'Invitation e-mail outbox unavailable (connect ECONNREFUSED 127.0.0.1:3306): e-mails wait until the database is back',
    ]);

    await w.deliverDue();
    expect(mailer.sent).toEqual([email]);
    expect(await only()).toMatchObject({ status: 'sent', sentAt: NOW, claimedBy: null });
    expect(lines(logged.log)).toEqual(['Invitation e-mail outbox available again: delivering']);
  });

  it('takes back a row it claimed when the claim was stored but its answer was lost', async () => {
    const { email } = await invite();
    const w = worker();
    const claimedUntil = new Date(NOW.getTime() + OUTBOX_CLAIM_MS);
    await rows.update({ status: 'pending' }, { status: 'sending', claimedBy: w.workerId, claimedUntil, attempts: 1 });

    await w.deliverDue();
    expect(mailer.sent).toEqual([email]);
    expect(await only()).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a table not created yet (migrations pending) is a warning, once, not an error', async () => {
    const w = worker();
    const missing = Object.assign(new Error('no such table: invitation_email_outbox'), { code: 'SQLITE_ERROR' });
    jest.spyOn(OutboxRows.prototype, 'due').mockRejectedValue(missing);
    for (let i = 0; i < 3; i++) await w.deliverDue();
    expect(lines(logged.error)).toEqual([]);
    expect(lines(logged.warn)).toEqual([
      'Invitation e-mail outbox not created yet (no such table: invitation_email_outbox): ' +
        'e-mails wait until migrations have run',
    ]);
  });

  it('logs a database outage once, however many rounds fail', async () => {
    const w = worker();
    jest.spyOn(OutboxRows.prototype, 'due').mockRejectedValue(new Error('connect ECONNREFUSED 127.0.0.1:3306'));
    for (let i = 0; i < 3; i++) await w.deliverDue();
    expect(lines(logged.error)).toHaveLength(1);
  });

  it('deletes sent rows a week after sending', async () => {
    await invite('old@example.com');
    const w = worker();
    await w.deliverDue();
    clock.advance(7 * 24 * 3600 * 1000 + 1);
    await invite('new@example.com');
    await worker().deliverDue();
    expect((await rows.find()).map((row) => JSON.parse(row.payload).to)).toEqual(['new@example.com']);
  });

  describe('in the application lifecycle', () => {
    it('starts on bootstrap, sends at once when kicked, and stops on shutdown', async () => {
      const w = worker();
      w.onApplicationBootstrap();
      try {
        const { email } = await invite();
        w.kick();
        const deadline = Date.now() + 2_000;
        while (mailer.sent.length === 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 5));
        expect(mailer.sent).toEqual([email]);
      } finally {
        await w.onApplicationShutdown();
      }
      await invite('after@example.com');
      w.kick();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(mailer.sent.map((email) => email.to)).toEqual(['new@example.com']);
    });
  });
});

import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { memoryDataSource } from '../../test/support/memory-data-source';
import { TestClock } from '../../test/support/test-clock';
import { TEST_WEBHOOK_SECRET } from '../../test/support/webhook-receiver';
import { AuditEvent } from '../audit/audit-event';
import { newWebhookDeliveryRow } from '../audit/webhook-delivery-row';
import { parseConfig } from '../config/app-config';
import { WebhookDeliveryEntity } from '../database/entities';
import { Metrics } from '../metrics/metrics';
import { MultiStatementPool } from '../database/multi-statement-pool';
import { PreparedStatements } from '../database/prepared-statements';
import { WEBHOOK_CLAIM_MS, WEBHOOK_KEEP_DELIVERED_MS, WebhookDeliveryWorker } from './webhook-delivery.worker';
import { AttemptResult } from '../outbox/outbox-delivery-loop';
import { WebhookRequest, WebhookSender } from './webhook-sender';

/** Answers from a script, and keeps what it was asked to send. */
class FakeSender extends WebhookSender {
  sent: WebhookRequest[] = [];
  results: AttemptResult[] = [];
  constructor() {
    super(parseConfig({ WEBHOOK_SECRET: TEST_WEBHOOK_SECRET }));
  }
  override async send(request: WebhookRequest): Promise<AttemptResult> {
    // Yield first, so that two workers' rounds interleave as they would against a real receiver.
    await new Promise((resolve) => setImmediate(resolve));
    this.sent.push(request);
    return this.results.shift() ?? { outcome: 'delivered' };
  }
}

const NOW = new Date('2026-03-01T10:00:00.000Z');
const ENV = {
  WEBHOOK_URLS: 'https://hooks.example.com/in',
  WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
  WEBHOOK_MAX_ATTEMPTS: '4',
  WEBHOOK_RETRY_BASE_MS: '1000',
  WEBHOOK_RETRY_MAX_MS: '3000',
  WEBHOOK_POLL_INTERVAL_MS: '3600000',
};

describe(WebhookDeliveryWorker.name, () => {
  let dataSource: DataSource;
  let rows: Repository<WebhookDeliveryEntity>;
  let sender: FakeSender;
  let clock: TestClock;
  let metrics: Metrics;
  const worker = () =>
    new WebhookDeliveryWorker(
      dataSource,
      new PreparedStatements(dataSource),
      new MultiStatementPool(dataSource),
      sender,
      clock,
      parseConfig(ENV),
      metrics,
    );
  const scraped = async (series: string) =>
    (await metrics.scrape()).split('\n').find((line) => line.startsWith(`${series} `));

  /** A delivery row for a new event, as AuditRows makes it. */
  const recorded = async () => {
    const event: AuditEvent = {
      id: randomUUID(),
      type: 'tenant.created',
      occurredAt: clock.now().toISOString(),
      tenantId: 't-1',
      actor: null,
      target: { type: 'tenant', id: 't-1' },
      data: {},
    };
    const row = newWebhookDeliveryRow(randomUUID(), ENV.WEBHOOK_URLS, event);
    await rows.insert(row);
    return row;
  };
  const only = async () => {
    const all = await rows.find();
    expect(all).toHaveLength(1);
    return all[0];
  };

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    rows = dataSource.getRepository(WebhookDeliveryEntity);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(async () => {
    await rows.clear();
    sender = new FakeSender();
    clock = new TestClock(NOW);
    metrics = new Metrics();
    for (const level of ['log', 'warn', 'error'] as const)
      jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('a claim outlasts the longest attempt (WEBHOOK_TIMEOUT_MS is at most 30 s), so that a live worker keeps its row', () => {
    expect(WEBHOOK_CLAIM_MS).toBeGreaterThanOrEqual(2 * 30_000);
  });

  it('sends a delivery once, with its stored body and the event id, and records it delivered', async () => {
    const row = await recorded();
    const w = worker();
    await w.deliverDue();
    await w.deliverDue();

    expect(sender.sent).toEqual([
      expect.objectContaining({ eventId: row.eventId, url: row.url, payload: row.payload }),
    ]);
    expect(await only()).toMatchObject({
      status: 'delivered',
      attempts: 1,
      deliveredAt: NOW,
      claimedBy: null,
      claimedUntil: null,
      lastError: null,
    });
    expect(await scraped('webhook_deliveries_total{outcome="delivered"}')).toBe(
      'webhook_deliveries_total{outcome="delivered"} 1',
    );
  });

  it('retries with exponential backoff up to the cap, then marks the delivery failed after WEBHOOK_MAX_ATTEMPTS', async () => {
    await recorded();
    sender.results.push(...Array(4).fill({ outcome: 'retry', reason: 'answered 503' }));
    const w = worker();

    await w.deliverDue();
    expect(await only()).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: new Date(NOW.getTime() + 1_000),
      lastError: 'answered 503',
    });
    clock.advance(999);
    await w.deliverDue();
    expect((await only()).attempts).toBe(1); // not due yet
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
    }); // the cap
    clock.advance(3_000);
    await w.deliverDue();
    expect(await only()).toMatchObject({ status: 'failed', attempts: 4, lastError: 'answered 503', claimedBy: null });
    expect(sender.sent).toHaveLength(4);
    expect(await scraped('webhook_deliveries_total{outcome="retried"}')).toBe(
      'webhook_deliveries_total{outcome="retried"} 3',
    );
    expect(await scraped('webhook_deliveries_total{outcome="failed"}')).toBe(
      'webhook_deliveries_total{outcome="failed"} 1',
    );
  });

  it('a permanent failure is never retried', async () => {
    await recorded();
    sender.results.push({ outcome: 'failed', reason: 'answered 410' });
    const w = worker();
    await w.deliverDue();
    clock.advance(3_600_000);
    await w.deliverDue();
    expect(sender.sent).toHaveLength(1);
    expect(await only()).toMatchObject({ status: 'failed', attempts: 1, lastError: 'answered 410' });
  });

  it('two workers on one table send each delivery once', async () => {
    for (let i = 0; i < 12; i++) await recorded();
    const [first, second] = [worker(), worker()];
    // Side by side, each round twice at once; as the worker's own loop does, a round that found a
    // full batch is followed by another, until neither finds one.
    while (
      (await Promise.all([first.deliverDue(), second.deliverDue(), first.deliverDue(), second.deliverDue()])).some(
        Boolean,
      )
    );

    expect(sender.sent).toHaveLength(12);
    expect(new Set(sender.sent.map((request) => request.eventId)).size).toBe(12);
    expect((await rows.find()).map((row) => row.status)).toEqual(Array(12).fill('delivered'));
  });

  it("takes over a dead worker's claim once it lapses, not before", async () => {
    const row = await recorded();
    await rows.update(row.id, {
      status: 'sending',
      attempts: 1,
      claimedBy: 'dead-worker',
      claimedUntil: new Date(NOW.getTime() + WEBHOOK_CLAIM_MS),
    });
    const w = worker();
    await w.deliverDue();
    expect(sender.sent).toEqual([]);
    clock.advance(WEBHOOK_CLAIM_MS + 1);
    await w.deliverDue();
    expect(sender.sent).toHaveLength(1);
    expect(await only()).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('deletes delivered rows after the retention, and keeps failed ones', async () => {
    const delivered = await recorded();
    const failed = await recorded();
    sender.results.push({ outcome: 'delivered' }, { outcome: 'failed', reason: 'answered 404' });
    await worker().deliverDue();
    clock.advance(WEBHOOK_KEEP_DELIVERED_MS + 1);
    await worker().deliverDue(); // a new worker purges on its first round

    expect((await rows.find()).map((row) => row.id)).toEqual([failed.id]);
    expect(await rows.findOneBy({ id: delivered.id })).toBeNull();
  });

  it('the backlog gauge is the age of the oldest delivery still waiting, 0 when none waits', async () => {
    worker();
    expect(await scraped('webhook_oldest_pending_delivery_age_seconds')).toBe(
      'webhook_oldest_pending_delivery_age_seconds 0',
    );
    await recorded();
    clock.advance(90_000);
    await recorded();
    expect(await scraped('webhook_oldest_pending_delivery_age_seconds')).toBe(
      'webhook_oldest_pending_delivery_age_seconds 90',
    );
  });
});

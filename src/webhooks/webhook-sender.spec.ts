import { hostname } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from '../../test/support/webhook-receiver';
import { parseConfig } from '../config/app-config';
import { WebhookSender } from './webhook-sender';

/** The sender against a real receiver on loopback; the worker and its rows are the e2e suites'. */
describe(WebhookSender.name, () => {
  let receiver: WebhookReceiver;
  const request = (url: string) => ({ eventId: 'evt-1', url, payload: '{"type":"tenant.created"}' });
  const sender = (env: Record<string, string> = {}) =>
    new WebhookSender(parseConfig({ WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, WEBHOOK_TIMEOUT_MS: '300', ...env }));
  const production = { NODE_ENV: 'production', AUTH_JWT_SECRET: 'k'.repeat(32) };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });
  afterAll(() => receiver.stop());

  it('sends the Standard Webhooks headers, and the signature verifies', async () => {
    const at = new Date();
    expect(await sender().send(request(receiver.url), at)).toEqual({ outcome: 'delivered' });
    const [hook] = receiver.received;
    expect(hook.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'evt-1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1_000)),
    });
    expect(new Webhook(TEST_WEBHOOK_SECRET).verify(hook.body, hook.headers as Record<string, string>)).toEqual({
      type: 'tenant.created',
    });
    expect(receiver.unverified).toEqual([]);
  });

  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [301, 'failed'],
    [400, 'failed'],
    [404, 'failed'],
    [410, 'failed'],
  ])('an answer %i is %s', async (status, outcome) => {
    receiver.answer({ status });
    expect(await sender().send(request(receiver.url), new Date())).toMatchObject({ outcome });
  });

  it('a receiver that does not answer within WEBHOOK_TIMEOUT_MS is a retry', async () => {
    receiver.answer({ status: 204, delayMs: 1_000 });
    const started = Date.now();
    expect(await sender().send(request(receiver.url), new Date())).toEqual({
      outcome: 'retry',
      reason: 'no answer within 300 ms',
    });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a closed port is a retry', async () => {
    const down = await WebhookReceiver.start();
    await down.stop();
    expect(await sender().send(request(down.url), new Date())).toEqual({
      outcome: 'retry',
      reason: expect.stringMatching(/^connection failed: .*ECONNREFUSED/),
    });
  });

  describe('in production (SSRF)', () => {
    it.each([
      ['a literal loopback address', () => receiver.url],
      ['a literal IPv6 loopback address', () => `http://[::1]:${receiver.port}/x`],
      ['an IPv4-mapped loopback address', () => `http://[::ffff:127.0.0.1]:${receiver.port}/x`],
      ['a name that resolves to a non-public address', () => `http://${hostname()}:${receiver.port}/x`],
    ])('refuses %s for good, without connecting', async (_, url) => {
      const result = await sender(production).send(request(url()), new Date());
      expect(result).toEqual({
        outcome: 'failed',
        reason: expect.stringMatching(
          /^refused: .* resolves to .*, a loopback, link-local or private address \(set WEBHOOK_ALLOW_PRIVATE=true to allow it\)$/,
        ),
      });
      expect(receiver.received).toEqual([]);
    });

    it('allows them with WEBHOOK_ALLOW_PRIVATE=true', async () => {
      expect(
        await sender({ ...production, WEBHOOK_ALLOW_PRIVATE: 'true' }).send(
          request(`http://${hostname()}:${receiver.port}/x`),
          new Date(),
        ),
      ).toEqual({
        outcome: 'delivered',
      });
    });
  });
});

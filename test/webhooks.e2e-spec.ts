import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { In } from 'typeorm';
import { AUDIT_EVENT_TYPES, toAuditEvent } from '../src/audit/audit-event';
import { isNonPublicAddress } from '../src/common/address-classifier';
import { AuditEventEntity, TenantEntity, WebhookDeliveryEntity } from '../src/database/entities';
import { eventually } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { sample } from './support/prometheus';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TestDns } from './support/test-dns';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from './support/webhook-receiver';
import { invalidRequest } from './support/documented-http';

/**
 * Every audit event is sent, signed per Standard Webhooks, to each
 * WEBHOOK_URLS receiver through the webhook outbox. A real HTTP receiver verifies every request
 * with the `standardwebhooks` library, and plays down, slow, 5xx and 410.
 */
describe('webhooks', () => {
  let receiver: WebhookReceiver;
  const apps: TestApp[] = [];
  const databases: TestDatabase[] = [];

  /** An instance that sends to the receiver, polling and retrying quickly so that tests wait milliseconds. */
  const start = async (env: Record<string, string> = {}, database?: TestDatabase) => {
    const app = await createTestApp({
      database,
      env: {
        WEBHOOK_URLS: receiver.url,
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_MAX_MS: '400',
        WEBHOOK_TIMEOUT_MS: '1000',
        ...env,
      },
    });
    apps.push(app);
    return app;
  };
  const deliveries = (app: TestApp, where: { eventId?: string } = {}) =>
    app.dataSource.getRepository(WebhookDeliveryEntity).find({ where, order: { createdAt: 'ASC', id: 'ASC' } });
  const metric = async (app: TestApp, series: string) =>
    sample((await app.http.get('/metrics').expect(200)).text, series);
  const settled = (app: TestApp) =>
    eventually(async () =>
      expect(
        await app.dataSource.getRepository(WebhookDeliveryEntity).countBy({ status: In(['pending', 'sending']) }),
      ).toBe(0),
    );

  /** POST /api/admin/tenants as a fresh super-admin: the answer, its time, and the stored event of the new tenant. */
  const createTenant = async (app: TestApp, name = 'Globex') => {
    const root = await factories(app).superAdmin();
    const started = Date.now();
    const res = await app.http
      .post('/api/admin/tenants')
      .set('Cookie', await sessionCookie(app, root))
      .send({ name, type: 'business' });
    const ms = Date.now() - started;
    expect(res.status).toBe(201);
    const event = await app.dataSource
      .getRepository(AuditEventEntity)
      .findOneByOrFail({ targetId: res.body.tenant.id });
    return { res, ms, event: toAuditEvent(event) };
  };
  /** The one delivery row of an event, once it is no longer pending or being sent. */
  const finalDelivery = (app: TestApp, eventId: string) =>
    eventually(async () => {
      const rows = await deliveries(app, { eventId });
      expect(rows).toHaveLength(1);
      expect(['delivered', 'failed']).toContain(rows[0].status);
      return rows[0];
    });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });
  afterEach(async () => {
    expect(receiver.unverified).toEqual([]);
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await Promise.all(databases.splice(0).map((database) => database.drop()));
    await receiver.listen().catch(() => undefined); // back up if a test stopped it
  });
  afterAll(() => receiver.stop());

  describe('every event type, written by the real routes', () => {
    it('each event reaches the receiver once, signed, as {type, timestamp, data: the event as the audit API shows it}', async () => {
      const dns = new TestDns();
      await dns.start();
      const t = await start({
        INVITE_RATE_LIMIT: '1000',
        DNS_RESOLVER_SERVERS: dns.address,
        DOMAIN_GRACE_SECONDS: '0',
      });
      const factory = factories(t);
      const root = await factory.superAdmin();
      const rootCookie = await sessionCookie(t, root);
      const tenant = await factory.tenant();
      const owner = await factory.member(tenant.id, { role: 'owner' });
      const ownerCookie = await sessionCookie(t, owner);
      const tokens: string[] = [];
      const invite = async (email: string) => {
        const res = await t.http.post('/api/org/invite').set('Cookie', ownerCookie).send({ email, role: 'member' });
        expect(res.status).toBe(200);
        tokens.push(res.body.invitation.id);
        return res.body.invitation.id as string;
      };

      expect(
        (await t.http.post('/api/admin/tenants').set('Cookie', rootCookie).send({ name: 'Globex', type: 'business' }))
          .status,
      ).toBe(201); // tenant.created
      const accepted = await invite('accepts@example.com'); // invitation.created
      expect((await t.http.post(`/api/invitations/${accepted}`)).status).toBe(200); // invitation.accepted
      const revoked = await invite('revoked@example.com');
      expect((await t.http.delete(`/api/org/invitations/${revoked}`).set('Cookie', ownerCookie)).status).toBe(200); // invitation.revoked
      const resent = await invite('resent@example.com');
      const resend = await t.http.post(`/api/org/invitations/${resent}/resend`).set('Cookie', ownerCookie); // invitation.resent
      expect(resend.status).toBe(200);
      tokens.push(resend.body.invitation.id);
      const late = await factory.invitation({ tenantId: tenant.id, expiresAt: new Date(Date.now() - 1_000) });
      tokens.push(late.id);
      expect((await t.http.get(`/api/invitations/${late.id}`)).body).toEqual({ valid: false, error: 'EXPIRED' }); // invitation.expired
      const promoted = await factory.member(tenant.id, { role: 'member' });
      expect(
        (await t.http.patch(`/api/org/members/${promoted.id}`).set('Cookie', ownerCookie).send({ role: 'admin' }))
          .status,
      ).toBe(200); // member.role_changed
      const removed = await factory.member(tenant.id, { role: 'member' });
      expect((await t.http.delete(`/api/org/users/${removed.id}`).set('Cookie', ownerCookie)).status).toBe(200); // member.removed
      const granted = await factory.member(tenant.id, { role: 'member' });
      expect(
        (await t.http.post('/api/admin/super-admins').set('Cookie', rootCookie).send({ email: granted.email })).status,
      ).toBe(200); // super_admin.granted
      const deleted = await factory.member(tenant.id, { role: 'member' });
      expect((await t.http.delete(`/api/admin/users/${deleted.id}`).set('Cookie', rootCookie)).status).toBe(200); // user.deleted
      const firstOwner = await factory.user();
      const unowned = await factory.tenant();
      const ownerInvitation = await t.http
        .post(`/api/admin/tenants/${unowned.id}/invitations`)
        .set('Cookie', rootCookie)
        .send({ email: firstOwner.email, role: 'owner' }); // invitation.created
      expect(ownerInvitation.status).toBe(201);
      tokens.push(ownerInvitation.body.invitation.id);
      const joined = await t.http
        .post(`/api/invitations/${ownerInvitation.body.invitation.id}/join`)
        .set('Cookie', await sessionCookie(t, firstOwner));
      expect(joined.status).toBe(200); // invitation.accepted, member.joined, tenant.activated
      const lifecycle = `/api/admin/tenants/${(await factory.tenant({ status: 'active' })).id}`;
      expect((await t.http.patch(lifecycle).set('Cookie', rootCookie).send({ name: 'Initech' })).status).toBe(200); // tenant.updated
      expect((await t.http.post(`${lifecycle}/suspend`).set('Cookie', rootCookie)).status).toBe(200); // tenant.suspended
      expect((await t.http.post(`${lifecycle}/reactivate`).set('Cookie', rootCookie)).status).toBe(200); // tenant.reactivated
      expect((await t.http.delete(lifecycle).set('Cookie', rootCookie)).status).toBe(200); // tenant.deleted
      await domainEvents(t, dns, tenant.id, ownerCookie, rootCookie);
      await dns.stop();

      const events = (await t.dataSource.getRepository(AuditEventEntity).find()).map(toAuditEvent);
      expect(events.map((event) => event.type).sort()).toEqual(
        [
          ...AUDIT_EVENT_TYPES,
          'invitation.created',
          'invitation.created',
          'invitation.created',
          'invitation.accepted',
          'join_request.created',
          'member.joined',
        ].sort(), // four invitations were created, two accepted; two join requests, one approved
      );
      await eventually(() => expect(receiver.acknowledged()).toHaveLength(events.length));
      await settled(t);
      const now = Math.floor(Date.now() / 1_000);
      for (const event of events) {
        const [hook, ...more] = receiver.withId(event.id);
        expect(more).toEqual([]);
        expect(hook.payload).toEqual({ type: event.type, timestamp: event.occurredAt, data: event });
        expect(hook.headers).toMatchObject({
          'content-type': 'application/json',
          'webhook-id': event.id,
          'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
        });
        expect(Math.abs(Number(hook.headers['webhook-timestamp']) - now)).toBeLessThan(60);
        expect(await deliveries(t, { eventId: event.id })).toEqual([
          expect.objectContaining({
            url: receiver.url,
            status: 'delivered',
            attempts: 1,
            lastError: null,
            deliveredAt: expect.any(Date),
            claimedBy: null,
          }),
        ]);
      }
      // The invitation id is its token: no webhook carries one.
      for (const token of tokens) expect(receiver.received.filter((hook) => hook.body.includes(token))).toEqual([]);
    });

    it('a refused or failed change writes no event and no delivery', async () => {
      const t = await start();
      const factory = factories(t);
      const rootCookie = await sessionCookie(t, await factory.superAdmin());
      const tenant = await factory.tenant();
      const owner = await factory.member(tenant.id, { role: 'owner' });
      const member = await factory.member(tenant.id, { role: 'member' });

      expect(
        (
          await invalidRequest(
            t.http.post('/api/admin/tenants').set('Cookie', rootCookie).send({ name: 'Globex', type: 'castle' }),
          )
        ).status,
      ).toBe(400);
      expect(
        (
          await t.http
            .post('/api/org/invite')
            .set('Cookie', await sessionCookie(t, owner))
            .send({ email: member.email, role: 'member' })
        ).status,
      ).toBe(400);
      expect((await t.http.post('/api/invitations/no-such-token')).status).toBe(404);
      expect(
        (await t.http.post('/api/admin/super-admins').set('Cookie', rootCookie).send({ email: 'nobody@example.com' }))
          .status,
      ).toBe(404);

      await delay(300); // several polls
      expect(await t.dataSource.getRepository(AuditEventEntity).count()).toBe(0);
      expect(await deliveries(t)).toEqual([]);
      expect(receiver.received).toEqual([]);
    });
  });

  describe('signature (Standard Webhooks)', () => {
    it('verifies with the standardwebhooks library and the shared secret; another secret or a changed body does not', async () => {
      const t = await start();
      const { event } = await createTenant(t);
      const [hook] = await eventually(() => {
        expect(receiver.withId(event.id)).toHaveLength(1);
        return receiver.withId(event.id);
      });
      const headers = hook.headers as Record<string, string>;
      expect(new Webhook(TEST_WEBHOOK_SECRET).verify(hook.body, headers)).toEqual({
        type: 'tenant.created',
        timestamp: event.occurredAt,
        data: event,
      });
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(hook.body, headers)).toThrow(
        'No matching signature found',
      );
      expect(() => new Webhook(TEST_WEBHOOK_SECRET).verify(hook.body.replace('Globex', 'Globez'), headers)).toThrow(
        'No matching signature found',
      );
    });
  });

  describe('retries', () => {
    it('receiver down (port closed): the API answers at once; the delivery is retried with backoff, arrives once it is back', async () => {
      const t = await start();
      await receiver.stop();
      const { ms, event } = await createTenant(t);
      expect(ms).toBeLessThan(1_000);

      const [waiting] = await eventually(async () => {
        const rows = await deliveries(t, { eventId: event.id });
        expect(rows).toEqual([
          expect.objectContaining({
            status: 'pending',
            lastError: expect.stringMatching(/^connection failed: .*ECONNREFUSED/),
          }),
        ]);
        expect(rows[0].attempts).toBeGreaterThanOrEqual(2);
        return rows;
      });
      expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(waiting.createdAt.getTime());
      expect(await metric(t, 'webhook_deliveries_total{outcome="retried"}')).toBeGreaterThanOrEqual(2);
      expect(await metric(t, 'webhook_oldest_pending_delivery_age_seconds')).toBeGreaterThan(0);

      await receiver.listen();
      const row = await finalDelivery(t, event.id);
      expect(row).toMatchObject({ status: 'delivered', deliveredAt: expect.any(Date) });
      expect(receiver.withId(event.id)).toHaveLength(1);
      expect(await metric(t, 'webhook_deliveries_total{outcome="delivered"}')).toBe(1);
      expect(await metric(t, 'webhook_oldest_pending_delivery_age_seconds')).toBe(0);
    });

    it('receiver slower than WEBHOOK_TIMEOUT_MS: cut at the timeout, retried with the same webhook-id; the API never waits', async () => {
      const t = await start({ WEBHOOK_TIMEOUT_MS: '300' });
      receiver.answer({ status: 204, delayMs: 2_000 });
      const { ms, event } = await createTenant(t);
      expect(ms).toBeLessThan(300);

      const row = await finalDelivery(t, event.id);
      expect(row).toMatchObject({ status: 'delivered', attempts: 2, lastError: 'no answer within 300 ms' });
      const [slow, fast] = receiver.withId(event.id);
      expect([slow.status, fast.status]).toEqual([204, 204]);
      expect(fast.body).toBe(slow.body);
      expect(fast.headers['webhook-id']).toBe(slow.headers['webhook-id']);
    });

    it('500 then 200: retried once, then delivered; counted as retried and delivered', async () => {
      const t = await start();
      receiver.answer({ status: 500 }, { status: 200 });
      const { event } = await createTenant(t);

      const row = await finalDelivery(t, event.id);
      expect(row).toMatchObject({ status: 'delivered', attempts: 2, lastError: 'answered 500' });
      expect(receiver.withId(event.id).map((hook) => hook.status)).toEqual([500, 200]);
      expect(await metric(t, 'webhook_deliveries_total{outcome="retried"}')).toBe(1);
      expect(await metric(t, 'webhook_deliveries_total{outcome="delivered"}')).toBe(1);
    });

    it('410 (a 4xx other than 408 and 429): failed for good after one attempt, never retried', async () => {
      const t = await start();
      receiver.answer({ status: 410 });
      const { event } = await createTenant(t);

      const row = await finalDelivery(t, event.id);
      expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: 'answered 410', deliveredAt: null });
      await delay(600); // past every retry delay (100 to 400 ms)
      expect(receiver.withId(event.id).map((hook) => hook.status)).toEqual([410]);
      expect(await deliveries(t, { eventId: event.id })).toEqual([
        expect.objectContaining({ status: 'failed', attempts: 1 }),
      ]);
      expect(await metric(t, 'webhook_deliveries_total{outcome="failed"}')).toBe(1);
      expect(await metric(t, 'webhook_deliveries_total{outcome="retried"}')).toBe(0);
    });

    it('408, 429 and 5xx are retried up to WEBHOOK_MAX_ATTEMPTS, then the delivery is failed', async () => {
      const t = await start({ WEBHOOK_MAX_ATTEMPTS: '3' });
      receiver.answer({ status: 408 }, { status: 429 }, { status: 503 }, { status: 204 });
      const { event } = await createTenant(t);

      const row = await finalDelivery(t, event.id);
      expect(row).toMatchObject({ status: 'failed', attempts: 3, lastError: 'answered 503' });
      await delay(600);
      expect(receiver.withId(event.id).map((hook) => hook.status)).toEqual([408, 429, 503]);
      expect(await metric(t, 'webhook_deliveries_total{outcome="retried"}')).toBe(2);
      expect(await metric(t, 'webhook_deliveries_total{outcome="failed"}')).toBe(1);
    });
  });

  describe('several instances', () => {
    it('two instances on one database: each event is delivered exactly once when the receiver acknowledges', async () => {
      const database = await createTestDatabase();
      databases.push(database);
      const fleet = [await start({}, database), await start({}, database)];
      const root = await factories(fleet[0]).superAdmin();
      const cookie = await sessionCookie(fleet[0], root);

      const responses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          fleet[i % 2].http
            .post('/api/admin/tenants')
            .set('Cookie', cookie)
            .send({ name: `Fleet ${i}`, type: 'business' }),
        ),
      );
      expect(responses.map((res) => res.status)).toEqual(Array(16).fill(201));

      const events = await fleet[0].dataSource.getRepository(AuditEventEntity).find();
      expect(events).toHaveLength(16);
      await eventually(() => expect(receiver.acknowledged()).toHaveLength(16));
      await settled(fleet[0]);
      await delay(300); // a second send would show by now
      for (const event of events) expect(receiver.withId(event.id)).toHaveLength(1);
      expect(receiver.received).toHaveLength(16);
      const rows = await deliveries(fleet[0]);
      expect(rows.map((row) => [row.status, row.attempts])).toEqual(Array(16).fill(['delivered', 1]));
    });
  });

  describe('SSRF', () => {
    it('production: a receiver resolving to a loopback or private address is refused, delivery failed; WEBHOOK_ALLOW_PRIVATE', async () => {
      // The host's own name: /etc/hosts maps it to loopback or the container's private address.
      const host = hostname();
      const addresses = await lookup(host, { all: true });
      expect(addresses.every((entry) => isNonPublicAddress(entry.address))).toBe(true);
      const url = `http://${host}:${receiver.port}/hooks/tenant-service`;
      const production = { NODE_ENV: 'production', LOG_LEVEL: 'silent', WEBHOOK_URLS: url };

      const refusing = await start(production);
      const { event } = await createTenant(refusing);
      const row = await finalDelivery(refusing, event.id);
      expect(row).toMatchObject({ status: 'failed', attempts: 1, url });
      expect(row.lastError).toMatch(
        new RegExp(
          `^refused: ${host} resolves to .*, a loopback, link-local or private address \\(set WEBHOOK_ALLOW_PRIVATE=true to allow it\\)$`,
        ),
      );
      expect(receiver.received).toEqual([]);
      expect(await metric(refusing, 'webhook_deliveries_total{outcome="failed"}')).toBe(1);

      const allowing = await start({ ...production, WEBHOOK_ALLOW_PRIVATE: 'true' });
      const allowed = await createTenant(allowing);
      expect(await finalDelivery(allowing, allowed.event.id)).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(receiver.withId(allowed.event.id)).toHaveLength(1);
    });
  });
});

/**
 * Every domain and join-request event (docs/domains.md), by the real routes: the tenant's owner
 * claims, proves, loses and removes a domain.
 */
async function domainEvents(t: TestApp, dns: TestDns, tenantId: string, ownerCookie: string, rootCookie: string) {
  const factory = factories(t);
  await t.dataSource.getRepository(TenantEntity).update({ id: tenantId }, { status: 'active' });
  const name = 'webhooks-domain.test';
  const org = (path = '') => `/api/org/domains${path}`;
  const added = await t.http.post(org()).set('Cookie', ownerCookie).send({ domain: name }); // domain.added
  expect(added.status).toBe(201);
  expect((await t.http.post(org(`/${name}/verify`)).set('Cookie', ownerCookie)).status).toBe(200); // domain.verification_failed
  dns.publish(added.body.domain.verification.recordName, added.body.domain.verification.recordValue);
  expect((await t.http.post(org(`/${name}/verify`)).set('Cookie', ownerCookie)).body.domain.status).toBe('verified'); // domain.verified
  const patched = await t.http
    .patch(org(`/${name}`))
    .set('Cookie', ownerCookie)
    .send({ joinMode: 'request' }); // domain.updated
  expect(patched.status).toBe(200);
  const ask = async (email: string) => {
    const user = await factory.user({ email });
    const cookie =
      t.testIdentity.mode === 'local'
        ? `${t.config.sessionCookieName}=${t.testIdentity.signedPayload({
            token_use: 'id',
            sub: user.id,
            email,
            email_verified: true,
            exp: Math.floor(Date.now() / 1000) + 600,
          })}`
        : await sessionCookie(t, user);
    const res = await t.http.post(`/api/me/joinable-organisations/${tenantId}/join`).set('Cookie', cookie); // join_request.created
    expect(res.status).toBe(202);
    return res.body.request.id as string;
  };
  const approved = await ask(`approved@${name}`);
  const approve = await t.http.post(`/api/org/join-requests/${approved}/approve`).set('Cookie', ownerCookie);
  expect(approve.status).toBe(200); // join_request.approved, member.joined
  const rejected = await ask(`rejected@${name}`);
  const reject = await t.http.post(`/api/org/join-requests/${rejected}/reject`).set('Cookie', ownerCookie);
  expect(reject.status).toBe(200); // join_request.rejected
  dns.clear();
  expect((await t.http.post(org(`/${name}/verify`)).set('Cookie', ownerCookie)).body.domain.status).toBe('failing'); // domain.failing
  // domain.lapsed (grace 0)
  expect((await t.http.post(org(`/${name}/verify`)).set('Cookie', ownerCookie)).body.domain.status).toBe('lapsed');
  const release = await t.http
    .post(`/api/admin/domains/${name}/release`)
    .set('Cookie', rootCookie)
    .send({ tenantId, reason: 'test' }); // domain.released
  expect(release.status).toBe(200);
  expect((await t.http.delete(org(`/${name}`)).set('Cookie', ownerCookie)).status).toBe(200); // domain.removed
}

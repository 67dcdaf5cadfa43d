import { setTimeout as delay } from 'node:timers/promises';
import { InvitationEmailOutboxEntity, InvitationEntity } from '../src/database/entities';
import { eventually, outboxSettled } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { Inviter, newInviter, timedInvite } from './support/inviting';
import { SmtpCatcher } from './support/smtp-catcher';
import { FORBIDDEN, INVITATION_GET, INVITATION_POST, INVITE_ERRORS, REMOVE_MEMBER_ERRORS } from './support/spec-bodies';
import { TcpProxy } from './support/tcp-proxy';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The database goes away under a running instance. A TCP proxy that the test
 * controls sits between the app and MariaDB (this suite runs in e2e:mariadb only).
 */
describe('database faults (MariaDB behind a proxy)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let smtp: SmtpCatcher;
  let t: TestApp;
  let inviter: Inviter;
  let adminCookie: string;
  const crashes: unknown[] = [];
  const recordCrash = (error: unknown) => crashes.push(error);

  beforeAll(async () => {
    process.on('unhandledRejection', recordCrash);
    process.on('uncaughtException', recordCrash);
    database = await createTestDatabase();
    const proxied = await TcpProxy.forUrl(database.url, 3306);
    proxy = proxied.proxy;
    smtp = await SmtpCatcher.start();
    t = await createTestApp({
      database: { url: proxied.url, drop: async () => undefined },
      env: { SMTP_URL: smtp.url, INVITE_RATE_LIMIT: '10000' },
    });
    inviter = await newInviter(t);
    adminCookie = await sessionCookie(t, await factories(t).superAdmin());
  });
  afterAll(async () => {
    await proxy.reconnect();
    await t.close();
    await proxy.close();
    await smtp.stop();
    await database.drop();
    process.off('unhandledRejection', recordCrash);
    process.off('uncaughtException', recordCrash);
  });
  afterEach(async () => {
    await proxy.reconnect();
    expect(crashes).toEqual([]);
  });

  /** A request with the time it took. */
  const timed = async <T>(request: () => Promise<T>) => {
    const started = Date.now();
    const res = await request();
    return { res, ms: Date.now() - started };
  };

  it('while MariaDB is down every endpoint answers its failure at once; once it is back, it serves again without a restart', async () => {
    const pending = await timedInvite(t, inviter.cookie, 'before@example.com');
    expect(pending.status).toBe(200);
    const token = pending.body.invitation.id;
    const member = await factories(t).member(inviter.tenant.id, { role: 'member' });

    await proxy.disconnect('refuse');
    // More rounds than the pool has connections: no connection may be lost for good.
    for (let round = 0; round < 4; round++) {
      const invite = await timedInvite(t, inviter.cookie, `down-${round}@example.com`);
      expect([invite.status, invite.body]).toEqual([500, INVITE_ERRORS.createFailed]);
      expect(invite.ms).toBeLessThan(2_000);

      for (const [request, status, body] of [
        [() => t.http.get(`/api/invitations/${token}`), 404, INVITATION_GET.invalid],
        [() => t.http.post(`/api/invitations/${token}`), 404, INVITATION_POST.invalid],
        [
          () => t.http.delete(`/api/org/users/${member.id}`).set('Cookie', inviter.cookie),
          500,
          REMOVE_MEMBER_ERRORS.removeFailed,
        ],
        // Section 5: the super-admin check reads the caller's record, and a failed check is forbidden.
        [() => t.http.get('/api/admin/tenants').set('Cookie', adminCookie), 403, FORBIDDEN],
      ] as const) {
        const { res, ms } = await timed(request);
        expect([res.status, res.body]).toEqual([status, body]);
        expect(ms).toBeLessThan(2_000);
      }
    }

    await proxy.reconnect();
    const tenants = await eventually(async () => {
      const res = await t.http.get('/api/admin/tenants').set('Cookie', adminCookie);
      expect(res.status).toBe(200);
      return res.body.tenants;
    });
    expect(tenants).toContainEqual(expect.objectContaining({ id: inviter.tenant.id }));
    expect((await t.http.get(`/api/invitations/${token}`)).body).toMatchObject({
      valid: true,
      email: 'before@example.com',
    });
    const after = await timedInvite(t, inviter.cookie, 'after@example.com');
    expect(after.status).toBe(200);
    expect((await t.http.post(`/api/invitations/${after.body.invitation.id}`)).body).toMatchObject({ success: true });
    expect((await t.http.delete(`/api/org/users/${member.id}`).set('Cookie', inviter.cookie)).body).toEqual({
      success: true,
    });
    await eventually(() => expect(smtp.to('after@example.com')).toHaveLength(1));
  });

  it('during a network partition (connections accepted, never answered) requests fail within the connect timeout; recovers', async () => {
    const pending = await timedInvite(t, inviter.cookie, 'partition-before@example.com');
    const token = pending.body.invitation.id;

    await proxy.disconnect('blackhole');
    const answers = await Promise.all([
      timed(() => t.http.get(`/api/invitations/${token}`)),
      timed(() => t.http.post(`/api/invitations/${token}`)),
      timed(() => t.http.get('/api/admin/tenants').set('Cookie', adminCookie)),
      timed(async () => {
        const res = await timedInvite(t, inviter.cookie, 'partition@example.com');
        return { status: res.status, body: res.body };
      }),
    ]);
    expect(answers.map(({ res }) => [res.status, res.body])).toEqual([
      [404, INVITATION_GET.invalid],
      [404, INVITATION_POST.invalid],
      [403, FORBIDDEN],
      [500, INVITE_ERRORS.createFailed],
    ]);
    for (const { ms } of answers) expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS + 1_500);

    await proxy.reconnect();
    await eventually(async () =>
      expect((await t.http.get(`/api/invitations/${token}`)).body).toMatchObject({ valid: true }),
    );
    expect((await timedInvite(t, inviter.cookie, 'partition-after@example.com')).status).toBe(200);
  });

  it('while the database flaps, every invitation answered 200 keeps its row and its e-mail, and none is sent twice', async () => {
    const flapper = await newInviter(t);
    const results: { to: string; status: number; id?: string; ms: number }[] = [];
    const deadline = Date.now() + 3_000;
    let sequence = 0;

    const flapping = (async () => {
      while (Date.now() < deadline) {
        await delay(100 + Math.random() * 150);
        await proxy.disconnect('refuse');
        await delay(50 + Math.random() * 150);
        await proxy.reconnect();
      }
    })();
    const streams = Array.from({ length: 4 }, async () => {
      while (Date.now() < deadline) {
        const to = `flap-${sequence++}@example.com`;
        const res = await timedInvite(t, flapper.cookie, to);
        results.push({ to, status: res.status, id: res.body.invitation?.id, ms: res.ms });
      }
    });
    await Promise.all([flapping, ...streams]);
    await proxy.reconnect();

    const answered = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    // The fault must have bitten, and not everything may have failed.
    expect(answered.length).toBeGreaterThan(5);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.status).toBe(500);
    for (const r of results) expect(r.ms).toBeLessThan(2_000);

    const invitations = await t.dataSource.getRepository(InvitationEntity).findBy({ tenantId: flapper.tenant.id });
    const ids = new Set(invitations.map((row) => row.id));
    for (const r of answered) expect(ids.has(r.id!)).toBe(true);

    // The invitation and its outbox row were written together: never one without the other.
    await outboxSettled(t.dataSource, 15_000);
    const outbox = (await t.dataSource.getRepository(InvitationEmailOutboxEntity).find()).filter((row) =>
      JSON.parse(row.payload).to.startsWith('flap-'),
    );
    expect(outbox.map((row) => row.invitationId).sort()).toEqual([...ids].sort());
    expect(outbox.map((row) => row.status)).toEqual(outbox.map(() => 'sent'));

    // Each invitation's e-mail went out exactly once, those answered 200 included.
    for (const row of invitations) expect(smtp.to(row.email)).toHaveLength(1);
    expect(smtp.messages.filter((mail) => mail.to[0].startsWith('flap-'))).toHaveLength(invitations.length);
  });
});

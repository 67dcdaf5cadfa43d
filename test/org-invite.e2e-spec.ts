import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { eventually, outboxSettled } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { SmtpCatcher } from './support/smtp-catcher';
import { INVITE_ERRORS, ISO_8601, UNAUTHORIZED, UUID } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { useTwoInstances } from './support/suites';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TestUser } from './support/test-identity';
import { withoutTable } from './support/without-table';
import { TEST_REDIS_URL, describeWithRedis } from './support/test-redis';
import { invalidRequest } from './support/documented-http';

const INVALID_EMAIL = { error: 'Invalid email address' };
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/** A signed-in owner of a fresh tenant: every test counts its own invitations. */
interface Inviter {
  tenant: TenantEntity;
  user: TestUser;
  cookie: string;
}

async function newInviter(app: TestApp, role = 'owner', tenant?: Partial<TenantEntity>): Promise<Inviter> {
  const factory = factories(app);
  const row = await factory.tenant({ name: 'Acme', ...tenant });
  const user = await factory.member(row.id, { role });
  return { tenant: row, user, cookie: await sessionCookie(app, user) };
}

function invite(app: TestApp, cookie: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  const request = app.http.post('/api/org/invite');
  if (cookie) request.set('Cookie', cookie);
  for (const [name, value] of Object.entries(headers)) request.set(name, value);
  return request.send(body as object);
}

const invitationRows = (app: TestApp, tenantId: string) =>
  app.dataSource.getRepository(InvitationEntity).find({ where: { tenantId }, order: { createdAt: 'ASC' } });

describe('POST /api/org/invite (spec 4.9)', () => {
  let database: TestDatabase;
  let smtp: SmtpCatcher;
  let t: TestApp;
  let me: Inviter;

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await SmtpCatcher.start();
    t = await createTestApp({ database, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
    await database.drop();
  });
  beforeEach(async () => {
    // E-mails are sent after the response: let the previous test's arrive before counting.
    await outboxSettled(t.dataSource);
    smtp.messages.length = 0;
    me = await newInviter(t);
  });
  afterEach(() => jest.restoreAllMocks());

  /** Asserts the request left no trace: no invitation row, and no e-mail once the outbox is idle. */
  const expectNothingDone = async (tenantId = me.tenant.id) => {
    expect(await invitationRows(t, tenantId)).toEqual([]);
    await outboxSettled(t.dataSource);
    expect(smtp.messages).toEqual([]);
  };

  /** The e-mails received, once `count` have arrived (the outbox sends them after the response). */
  const delivered = (count: number) =>
    eventually(() => {
      expect(smtp.messages).toHaveLength(count);
      return smtp.messages;
    });

  describe('success (rules 9–11)', () => {
    it('rules 9 and 11: stores a pending invitation and answers 200 with the e-mail as submitted', async () => {
      const before = Date.now();
      const res = await invite(t, me.cookie, { email: 'New.Person@Example.COM', role: 'member' });

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        invitation: {
          id: expect.stringMatching(UUID),
          email: 'New.Person@Example.COM',
          role: 'member',
          status: 'pending',
          expiresAt: expect.stringMatching(ISO_8601),
        },
      });
      const rows = await invitationRows(t, me.tenant.id);
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row).toMatchObject({
        id: res.body.invitation.id,
        tenantId: me.tenant.id,
        email: 'new.person@example.com',
        role: 'member',
        status: 'pending',
        invitedBy: me.user.id,
      });
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(SEVEN_DAYS_MS);
      expect(row.expiresAt.toISOString()).toBe(res.body.invitation.expiresAt);
    });

    it.each(['owner', 'admin'])('rule 6: a caller with role %s may invite', async (role) => {
      const inviter = await newInviter(t, role);
      const res = await invite(t, inviter.cookie, { email: 'someone@example.com', role: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body.invitation.role).toBe('admin');
      expect(await invitationRows(t, inviter.tenant.id)).toEqual([
        expect.objectContaining({ role: 'admin', invitedBy: inviter.user.id }),
      ]);
    });

    it('rule 9: inviting the same address twice makes two invitations with different ids', async () => {
      const first = await invite(t, me.cookie, { email: 'twice@example.com', role: 'member' });
      const second = await invite(t, me.cookie, { email: 'twice@example.com', role: 'admin' });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.body.invitation.id).not.toBe(second.body.invitation.id);
      expect(await invitationRows(t, me.tenant.id)).toHaveLength(2);
    });
  });

  describe('the invitation e-mail (rule 10)', () => {
    it('rule 10: is sent to the invitee with the tenant, inviter, role, expiry and link, as text and HTML', async () => {
      const res = await invite(
        t,
        me.cookie,
        { email: 'invitee@example.com', role: 'admin' },
        { 'X-Forwarded-Proto': 'HTTP, https', Host: 'portal.example.com:8443' },
      );
      expect(res.status).toBe(200);

      const link = `http://portal.example.com:8443/invitations/${res.body.invitation.id}`;
      const expiry = new Date(res.body.invitation.expiresAt).toUTCString();
      const [mail] = await delivered(1);
      expect(mail.to).toEqual(['invitee@example.com']);
      expect(mail.from).toBe('no-reply@localhost');
      expect(mail.parsed.subject).toBe('You are invited to join Acme');
      for (const part of [mail.parsed.text, mail.parsed.html]) {
        expect(part).toContain(`${me.user.email} has invited you to join`);
        expect(part).toContain('Acme');
        expect(part).toContain('as admin');
        expect(part).toContain(expiry);
        expect(part).toContain(link);
      }
      expect(mail.parsed.html).toContain(`<a href="${link}">`);
    });

    it('rule 10: the base address defaults to https and to localhost:3000 for a host that is not a plain hostname[:port]', async () => {
      const res = await invite(
        t,
        me.cookie,
        { email: 'invitee@example.com', role: 'member' },
        { Host: 'evil.example/phish?x=' },
      );
      expect(res.status).toBe(200);
      await delivered(1);
      expect(smtp.messages[0].parsed.text).toContain(`https://localhost:3000/invitations/${res.body.invitation.id}`);
      expect(smtp.messages[0].parsed.text).not.toContain('evil.example');
    });

    it('rule 10: without x-forwarded-proto the protocol is https; a protocol other than http or https counts as absent', async () => {
      const plain = await invite(t, me.cookie, { email: 'a@example.com', role: 'member' }, { Host: 'app.example.com' });
      await delivered(1); // so that the two arrive in order
      const forged = await invite(
        t,
        me.cookie,
        { email: 'b@example.com', role: 'member' },
        { Host: 'app.example.com', 'X-Forwarded-Proto': 'javascript' },
      );
      await delivered(2);
      expect(smtp.messages.map((m) => m.parsed.text)).toEqual([
        expect.stringContaining(`https://app.example.com/invitations/${plain.body.invitation.id}`),
        expect.stringContaining(`https://app.example.com/invitations/${forged.body.invitation.id}`),
      ]);
    });

    it.each([
      ['has no name', { name: null }],
      ['has an empty name', { name: '' }],
    ])('rule 10: names the tenant "Organisation" when it %s', async (_, tenant) => {
      const inviter = await newInviter(t, 'owner', tenant as Partial<TenantEntity>);
      expect((await invite(t, inviter.cookie, { email: 'a@example.com', role: 'member' })).status).toBe(200);
      await delivered(1);
      expect(smtp.messages[0].parsed.subject).toBe('You are invited to join Organisation');
      expect(smtp.messages[0].parsed.text).toContain('to join Organisation as member');
    });

    it('rule 10: names the tenant "Organisation" when the caller\'s tenant has no row', async () => {
      const user = await factories(t).member(randomUUID());
      const res = await invite(t, await sessionCookie(t, user), { email: 'a@example.com', role: 'member' });
      expect(res.status).toBe(200);
      expect(await invitationRows(t, user.tenantId!)).toHaveLength(1);
      await delivered(1);
      expect(smtp.messages[0].parsed.subject).toBe('You are invited to join Organisation');
    });

    it('rule 10: escapes the tenant name in the HTML part', async () => {
      const inviter = await newInviter(t, 'owner', { name: '<img src=x onerror=alert(1)>' });
      expect((await invite(t, inviter.cookie, { email: 'a@example.com', role: 'member' })).status).toBe(200);
      await delivered(1);
      expect(smtp.messages[0].parsed.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(smtp.messages[0].parsed.html).not.toContain('<img');
    });
  });

  describe('the body (rules 1–3)', () => {
    it.each([
      ['missing', { role: 'member' }],
      ['empty', { email: '', role: 'member' }],
      ['null', { email: null, role: 'member' }],
    ])('rule 1: email %s is 400 "Email is required"', async (_, body) => {
      const res = await invalidRequest(() => invite(t, me.cookie, body));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.emailRequired);
      await expectNothingDone();
    });

    it.each([
      ['no @', 'not-an-email'],
      ['no domain', 'someone@'],
      ['no top-level domain', 'someone@localhost'],
      ['white space only', '   '],
      ['surrounding spaces', ' a@example.com '],
      ['two @', 'a@b@example.com'],
      ['a display name', 'Someone <a@example.com>'],
      ['10,000 characters', `${'a'.repeat(10_000)}@example.com`],
      ['a 65-character local part', `${'a'.repeat(65)}@example.com`],
      ['a number', 5],
      ['a boolean', true],
      ['an object', { $ne: null }],
      ['an array', ['a@example.com']],
    ])("rule 2: an e-mail with %s is 400 with the validator's message", async (_, email) => {
      const res = await invalidRequest(() => invite(t, me.cookie, { email, role: 'member' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_EMAIL);
      await expectNothingDone();
    });

    it.each([
      ['missing', {}],
      ['empty', { role: '' }],
      ['null', { role: null }],
      ['owner', { role: 'owner' }],
      ['differently cased', { role: 'Admin' }],
      ['padded', { role: ' member' }],
      ['a number', { role: 1 }],
      ['an array', { role: ['admin'] }],
      ['injection-shaped', { role: "member' OR '1'='1" }],
    ])('rule 3: role %s is 400 "Invalid role. Must be admin or member"', async (_, fields) => {
      const res = await invalidRequest(() => invite(t, me.cookie, { email: 'a@example.com', ...fields }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.invalidRole);
      await expectNothingDone();
    });

    it('rule 1 before rules 2–3: an empty body is "Email is required"', async () => {
      const res = await invalidRequest(() => invite(t, me.cookie, {}));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.emailRequired);
    });

    it('rule 2 before rule 3: a bad e-mail and a bad role is the e-mail message', async () => {
      const res = await invalidRequest(() => invite(t, me.cookie, { email: 'nope', role: 'owner' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_EMAIL);
    });
  });

  describe('authorisation (rules 4–6)', () => {
    it('rules 1–3 before rule 4: an invalid body without a session is 400, not 401', async () => {
      const res = await invalidRequest(() => invite(t, undefined, { email: 'a@example.com', role: 'owner' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.invalidRole);
    });

    it('rule 4: no session is 401 Unauthorized', async () => {
      const res = await invite(t, undefined, { email: 'a@example.com', role: 'member' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      await expectNothingDone();
    });

    it.each([
      ['an expired token', async () => sessionCookie(t, me.user, -60)],
      ['a token with a tampered signature', async () => `${(await sessionCookie(t, me.user)).slice(0, -4)}AAAA`],
      ['garbage', async () => `${t.config.sessionCookieName}=not.a.jwt`],
    ])('rule 4: %s is 401 Unauthorized', async (_, cookie) => {
      const res = await invite(t, await cookie(), { email: 'a@example.com', role: 'member' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      await expectNothingDone();
    });

    it('rule 5: a user who is not an org user is 403 "Only organisation users can invite"', async () => {
      const user = await factories(t).user({ tenantId: me.tenant.id, role: 'owner' });
      const res = await invite(t, await sessionCookie(t, user), { email: 'a@example.com', role: 'member' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVITE_ERRORS.notOrgUser);
      await expectNothingDone();
    });

    it('rule 5: an org user without a tenant is 403 "Only organisation users can invite"', async () => {
      const user = await factories(t).user({ userType: 'org', role: 'owner' });
      const res = await invite(t, await sessionCookie(t, user), { email: 'a@example.com', role: 'member' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVITE_ERRORS.notOrgUser);
    });

    it('rule 5: a super-admin outside any organisation may not invite', async () => {
      const admin = await factories(t).superAdmin();
      const res = await invite(t, await sessionCookie(t, admin), { email: 'a@example.com', role: 'member' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVITE_ERRORS.notOrgUser);
    });

    it.each([
      ['member', 'member'],
      ['no role', null],
    ])('rule 6: an org user with %s is 403 "Only owner or admin can invite users"', async (_, role) => {
      const user = await factories(t).member(me.tenant.id, { role });
      const res = await invite(t, await sessionCookie(t, user), { email: 'a@example.com', role: 'member' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVITE_ERRORS.notOwnerOrAdmin);
      await expectNothingDone();
    });

    it('rules 1–3 before rule 6: an invalid body from a member is 400', async () => {
      const user = await factories(t).member(me.tenant.id, { role: 'member' });
      const res = await invite(t, await sessionCookie(t, user), { email: 'nope', role: 'member' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_EMAIL);
    });
  });

  describe('already a member (rule 8)', () => {
    it("rule 8: an e-mail of the tenant's users, in any case, is 400 with nothing stored or sent", async () => {
      await factories(t).member(me.tenant.id, { role: 'member', email: 'taken@example.com' });
      const res = await invite(t, me.cookie, { email: 'TAKEN@Example.com', role: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.alreadyMember);
      await expectNothingDone();
    });

    it('rule 8: inviting your own address is "already a member"', async () => {
      const res = await invite(t, me.cookie, { email: me.user.email, role: 'member' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.alreadyMember);
    });

    if (process.env.E2E_IDENTITY !== 'cognito') {
      it('rule 8 on the local store is checked inside the write of rule 9: no look-up of its own when nobody matches', async () => {
        const lookUps = jest.spyOn(t.identity, 'findTenantMemberByEmail');
        const res = await invite(t, me.cookie, { email: 'newcomer@example.com', role: 'member' });
        expect(res.status).toBe(200);
        expect(lookUps).not.toHaveBeenCalled();
        expect((await invitationRows(t, me.tenant.id)).map((row) => row.email)).toEqual(['newcomer@example.com']);
      });
    }

    it('rule 8: a user of another tenant, or of none, is not a member of this one', async () => {
      const other = await factories(t).tenant();
      const elsewhere = await factories(t).member(other.id, { email: 'elsewhere@example.com' });
      const loose = await factories(t).user({ email: 'loose@example.com' });
      for (const email of [elsewhere.email, loose.email]) {
        expect((await invite(t, me.cookie, { email, role: 'member' })).status).toBe(200);
      }
      expect((await invitationRows(t, me.tenant.id)).map((row) => row.email)).toEqual([
        'elsewhere@example.com',
        'loose@example.com',
      ]);
    });
  });

  describe('failures (rules 9, 10 and 12)', () => {
    it('rule 9: a failed insert is 500 "Failed to create invitation" and sends nothing', async () => {
      await withoutTable(t.dataSource, 'tenant_invitations', async () => {
        const res = await invite(t, me.cookie, { email: 'a@example.com', role: 'member' });
        expect(res.status).toBe(500);
        expect(res.body).toEqual(INVITE_ERRORS.createFailed);
      });
      await expectNothingDone();
    });

    it('rule 9: the invitation and its e-mail are written together: when the e-mail cannot be recorded, no invitation stays', async () => {
      await withoutTable(t.dataSource, 'invitation_email_outbox', async () => {
        const res = await invite(t, me.cookie, { email: 'a@example.com', role: 'member' });
        expect(res.status).toBe(500);
        expect(res.body).toEqual(INVITE_ERRORS.createFailed);
      });
      await expectNothingDone();
    });

    it('rule 12: an identity store failure is 500 "Failed to create invitation"', async () => {
      // Read before the write (as a store outside the database is), the look-up fails.
      jest.spyOn(t.identity, 'tenantMemberCandidates').mockReturnValueOnce(null);
      jest.spyOn(t.identity, 'findTenantMemberByEmail').mockRejectedValueOnce(new Error('store down'));
      const res = await invite(t, me.cookie, { email: 'a@example.com', role: 'member' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual(INVITE_ERRORS.createFailed);
      await expectNothingDone();
    });

    it('rule 10: with the SMTP server stopped, the invite still answers 200 quickly; the failure is logged without the token', async () => {
      const down = await SmtpCatcher.start();
      await down.stop();
      // A database of its own, with the same users: `t` would deliver the e-mail through the working server.
      const app = await createTestApp({ identityOf: database, env: { SMTP_URL: down.url } });
      try {
        const inviter = await newInviter(app);
        // Each failed attempt is a warning; giving up is an error (see test/invitation-outbox).
        const warnings = jest.spyOn(Logger.prototype, 'warn');
        const started = Date.now();
        const res = await invite(app, inviter.cookie, { email: 'a@example.com', role: 'member' });

        expect(Date.now() - started).toBeLessThan(3_000);
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
        expect(await invitationRows(app, inviter.tenant.id)).toEqual([
          expect.objectContaining({ id: res.body.invitation.id, status: 'pending' }),
        ]);
        const logged = await eventually(() => {
          const lines = warnings.mock.calls.map((call) => String(call[0]));
          expect(lines.length).toBeGreaterThan(0);
          return lines;
        });
        expect(logged).toEqual(
          logged.map(() =>
            expect.stringMatching(/^Invitation e-mail to a@example\.com for tenant .* failed: .*ECONNREFUSED/),
          ),
        );
        expect(logged.join('\n')).not.toContain(res.body.invitation.id);
      } finally {
        await app.close();
      }
    });
  });

  describe('bad input', () => {
    it('malformed JSON is 400 JSON with nothing stored or sent', async () => {
      const res = await invalidRequest(() =>
        t.http
          .post('/api/org/invite')
          .set('Cookie', me.cookie)
          .set('Content-Type', 'application/json')
          .send('{"email": "a@example.com",'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Malformed JSON body' });
      await expectNothingDone();
    });

    it('an array body is 400 JSON with nothing stored or sent', async () => {
      const res = await invalidRequest(() => invite(t, me.cookie, [{ email: 'a@example.com', role: 'member' }]));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Request body must be a JSON object' });
      await expectNothingDone();
    });

    it('a JSON string body is a 400 JSON error', async () => {
      const res = await invalidRequest(() =>
        t.http
          .post('/api/org/invite')
          .set('Cookie', me.cookie)
          .set('Content-Type', 'application/json')
          .send('"a@example.com"'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
      await expectNothingDone();
    });

    it('a form-encoded body is not parsed and reaches the rules as empty', async () => {
      const res = await invalidRequest(() =>
        t.http.post('/api/org/invite').set('Cookie', me.cookie).type('form').send('email=a%40example.com&role=member'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.emailRequired);
      await expectNothingDone();
    });

    it('a body over the size limit is 413 JSON', async () => {
      const res = await invite(t, me.cookie, { email: 'a@example.com', role: 'member', padding: 'x'.repeat(200_000) });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'Request body too large' });
      await expectNothingDone();
    });

    it('extra fields are ignored: the stored row takes nothing from them', async () => {
      const other = randomUUID();
      const res = await invite(t, me.cookie, {
        email: 'a@example.com',
        role: 'member',
        id: 'chosen-id',
        tenantId: other,
        status: 'accepted',
        invitedBy: 'someone-else',
        expiresAt: '2999-01-01T00:00:00.000Z',
      });
      expect(res.status).toBe(200);
      expect(res.body.invitation).toMatchObject({ id: expect.stringMatching(UUID), status: 'pending' });
      const [row] = await invitationRows(t, me.tenant.id);
      expect(row).toMatchObject({ id: res.body.invitation.id, status: 'pending', invitedBy: me.user.id });
      expect(row.expiresAt.getFullYear()).toBeLessThan(2999);
      expect(await invitationRows(t, other)).toEqual([]);
    });

    it('a __proto__ key does not supply a role', async () => {
      const res = await invalidRequest(() =>
        t.http
          .post('/api/org/invite')
          .set('Cookie', me.cookie)
          .set('Content-Type', 'application/json')
          .send('{"email": "a@example.com", "__proto__": {"role": "admin"}}'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITE_ERRORS.invalidRole);
      await expectNothingDone();
    });

    it('a unicode address is accepted, answered as submitted and stored lower-cased', async () => {
      const res = await invite(t, me.cookie, { email: 'Jürgen.Müller@Bücher.example', role: 'member' });
      expect(res.status).toBe(200);
      expect(res.body.invitation.email).toBe('Jürgen.Müller@Bücher.example');
      expect((await invitationRows(t, me.tenant.id)).map((row) => row.email)).toEqual(['jürgen.müller@bücher.example']);
    });

    it.each([
      ["a'); DROP TABLE tenant_invitations; --@example.com"],
      ['" OR 1=1 --@example.com'],
      ['<script>alert(1)</script>@example.com'],
      ['a@example.com\r\nBcc: victim@example.com'],
    ])('an injection-shaped e-mail %p is 400 with nothing stored or sent', async (email) => {
      const res = await invite(t, me.cookie, { email, role: 'member' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_EMAIL);
      await expectNothingDone();
    });

    it('a valid address with a quote is stored verbatim (parameterised, not interpolated)', async () => {
      const res = await invite(t, me.cookie, { email: "O'Brien+test@example.com", role: 'member' });
      expect(res.status).toBe(200);
      expect((await invitationRows(t, me.tenant.id)).map((row) => row.email)).toEqual(["o'brien+test@example.com"]);
    });
  });

  describe('the rate limit (rule 7, section 8)', () => {
    let limited: TestApp;
    beforeAll(async () => {
      // A database of its own, with the same users: its outbox logs e-mails (no SMTP_URL) and must not take `t`'s.
      limited = await createTestApp({
        identityOf: database,
        env: { INVITE_RATE_LIMIT: '2', PUBLIC_BASE_URL: 'https://portal.example.org/app' },
      });
    });
    afterAll(() => limited.close());

    const inviteMany = async (
      app: TestApp,
      cookie: string,
      count: number,
      email = (i: number) => `invitee-${i}@example.com`,
    ) => {
      const statuses = [];
      for (let i = 0; i < count; i++)
        statuses.push((await invite(app, cookie, { email: email(i), role: 'member' })).status);
      return statuses;
    };

    it('section 8: by default the 11th invitation within an hour is 429 with Retry-After, and nothing is stored for it', async () => {
      expect(await inviteMany(t, me.cookie, 10)).toEqual(Array(10).fill(200));
      const res = await invite(t, me.cookie, { email: 'eleventh@example.com', role: 'member' });
      expect(res.status).toBe(429);
      expect(res.body).toEqual(INVITE_ERRORS.rateLimited);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
      expect(await invitationRows(t, me.tenant.id)).toHaveLength(10);
      await delivered(10);
    });

    it('rule 7: past INVITE_RATE_LIMIT the caller gets 429 until the window ends', async () => {
      const inviter = await newInviter(limited);
      expect(await inviteMany(limited, inviter.cookie, 4)).toEqual([200, 200, 429, 429]);
      expect(await invitationRows(limited, inviter.tenant.id)).toHaveLength(2);
    });

    it('rule 7: counted per user id: another owner of the same tenant is unaffected', async () => {
      const inviter = await newInviter(limited);
      const colleague = await factories(limited).member(inviter.tenant.id, { role: 'admin' });
      expect(await inviteMany(limited, inviter.cookie, 3)).toEqual([200, 200, 429]);
      expect(
        await inviteMany(limited, await sessionCookie(limited, colleague), 2, (i) => `other-${i}@example.com`),
      ).toEqual([200, 200]);
    });

    it('rule 7 after rules 1–6: invalid bodies, requests without a session and forbidden callers are not counted', async () => {
      const inviter = await newInviter(limited);
      for (let i = 0; i < 3; i++) {
        expect((await invite(limited, inviter.cookie, { email: 'nope', role: 'member' })).status).toBe(400);
        expect((await invite(limited, undefined, { email: 'a@example.com', role: 'member' })).status).toBe(401);
      }
      const member = await factories(limited).member(inviter.tenant.id, { role: 'member' });
      expect(await inviteMany(limited, await sessionCookie(limited, member), 3)).toEqual([403, 403, 403]);
      expect(await inviteMany(limited, inviter.cookie, 3)).toEqual([200, 200, 429]);
    });

    it('rule 7 before rule 8: requests for existing members count, and an over-limit one is 429 rather than 400', async () => {
      const inviter = await newInviter(limited);
      const existing = await factories(limited).member(inviter.tenant.id, { role: 'member' });
      const res = [];
      for (let i = 0; i < 3; i++)
        res.push(await invite(limited, inviter.cookie, { email: existing.email, role: 'member' }));
      expect(res.map((r) => r.status)).toEqual([400, 400, 429]);
      expect(res[2].body).toEqual(INVITE_ERRORS.rateLimited);
      expect((await invite(limited, inviter.cookie, { email: 'new@example.com', role: 'member' })).status).toBe(429);
      expect(await invitationRows(limited, inviter.tenant.id)).toEqual([]);
    });

    it('only the invite route is limited: removing members goes on past the limit', async () => {
      const inviter = await newInviter(limited);
      expect(await inviteMany(limited, inviter.cookie, 3)).toEqual([200, 200, 429]);
      for (let i = 0; i < 3; i++) {
        const member = await factories(limited).member(inviter.tenant.id, { role: 'member' });
        expect((await limited.http.delete(`/api/org/users/${member.id}`).set('Cookie', inviter.cookie)).status).toBe(
          200,
        );
      }
    });

    it('rule 10: without SMTP_URL the e-mail is logged, with its link on PUBLIC_BASE_URL whatever the headers', async () => {
      const inviter = await newInviter(limited);
      // The e-mails of the tests before this one are logged first, so that only this one's is counted.
      await outboxSettled(limited.dataSource);
      const log = jest.spyOn(Logger.prototype, 'log');
      const res = await invite(
        limited,
        inviter.cookie,
        { email: 'logged@example.com', role: 'admin' },
        { Host: 'evil.example', 'X-Forwarded-Proto': 'http' },
      );
      expect(res.status).toBe(200);
      const logged = await eventually(() => {
        const lines = log.mock.calls
          .map((call) => String(call[0]))
          .filter((line) => line.includes('SMTP_URL is not set'));
        expect(lines).toHaveLength(1);
        return lines;
      });
      expect(logged[0]).toContain('To: logged@example.com');
      expect(logged[0]).toContain(`https://portal.example.org/app/invitations/${res.body.invitation.id}`);
      expect(logged[0]).not.toContain('evil.example');
    });
  });

  describe('the rate limit across instances (REDIS_URL)', () => {
    it('with Redis unreachable, each instance counts in memory: invitations go on, the limit holds, and it is logged', async () => {
      const errors = jest.spyOn(Logger.prototype, 'error');
      const app = await createTestApp({
        identityOf: database,
        env: { INVITE_RATE_LIMIT: '2', REDIS_URL: 'redis://127.0.0.1:1' },
      });
      try {
        const inviter = await newInviter(app);
        const started = Date.now();
        const statuses = [];
        for (let i = 0; i < 3; i++)
          statuses.push((await invite(app, inviter.cookie, { email: `r${i}@example.com`, role: 'member' })).status);
        expect(statuses).toEqual([200, 200, 429]);
        expect(Date.now() - started).toBeLessThan(3_000);
        const logged = errors.mock.calls.map((call) => String(call[0]));
        expect(logged).toContainEqual(
          expect.stringMatching(/^Redis unreachable .*counting invitations in this instance's memory/),
        );
      } finally {
        await app.close();
      }
    });

    describeWithRedis('on one Redis (needs TEST_REDIS_URL)', () => {
      // A database of their own, shared by the two, with the same users: their outboxes log e-mails (no SMTP_URL).
      const { first, second, redisPrefix: prefix } = useTwoInstances(() => ({ redis: true, identityOf: database }));

      it('section 8: the 11th invitation of a user across two instances is 429, while another user is unaffected', async () => {
        const inviter = await newInviter(first);
        const statuses = [];
        for (let i = 0; i < 10; i++) {
          const app = i % 2 === 0 ? first : second;
          statuses.push(
            (await invite(app, inviter.cookie, { email: `shared-${i}@example.com`, role: 'member' })).status,
          );
        }
        expect(statuses).toEqual(Array(10).fill(200));

        for (const app of [first, second]) {
          const res = await invite(app, inviter.cookie, { email: 'eleventh@example.com', role: 'member' });
          expect(res.status).toBe(429);
          expect(res.body).toEqual(INVITE_ERRORS.rateLimited);
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
        expect(await invitationRows(first, inviter.tenant.id)).toHaveLength(10);

        const other = await newInviter(second);
        expect((await invite(second, other.cookie, { email: 'fresh@example.com', role: 'member' })).status).toBe(200);
        expect((await invite(first, other.cookie, { email: 'fresh2@example.com', role: 'member' })).status).toBe(200);

        const redis = new Redis(TEST_REDIS_URL!);
        expect((await redis.keys(`${prefix}*`)).length).toBeGreaterThan(0);
        redis.disconnect();
      });
    });
  });
});

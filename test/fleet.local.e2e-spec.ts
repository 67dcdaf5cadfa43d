import { eventually, outboxSettled } from './support/eventually';
import { factories } from './support/factories';
import { newInviter, timedInvite } from './support/inviting';
import { SmtpCatcher } from './support/smtp-catcher';
import { INVITATION_POST, INVITE_ERRORS } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TEST_REDIS_URL, describeWithRedis, testRedisPrefix, deleteRedisKeys } from './support/test-redis';

/**
 * Issue 5, item 9: two instances behind a load balancer, on one database (MariaDB in e2e:mariadb,
 * one SQLite file in e2e:sqlite), one Redis and one SMTP server, with requests spread over both.
 */
describeWithRedis('a fleet of two instances (needs TEST_REDIS_URL)', () => {
  const prefix = testRedisPrefix();
  let database: TestDatabase;
  let smtp: SmtpCatcher;
  let fleet: TestApp[];
  /** Round-robin, as a load balancer would. */
  let next = 0;
  const balanced = () => fleet[next++ % fleet.length];

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await SmtpCatcher.start();
    const env = { REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix, SMTP_URL: smtp.url };
    fleet = [await createTestApp({ database, env }), await createTestApp({ database, env })];
  });
  afterAll(async () => {
    await Promise.all(fleet.map((app) => app.close()));
    await smtp.stop();
    await database.drop();
    await deleteRedisKeys(prefix);
  });

  it('the invite limit holds across the instances, under parallel requests, and each e-mail is sent once', async () => {
    const inviter = await newInviter(fleet[0]);
    const recipients = Array.from({ length: 16 }, (_, i) => `fleet-${i}@example.com`);
    const responses = await Promise.all(recipients.map((to) => timedInvite(balanced(), inviter.cookie, to)));

    const accepted = responses.filter((res) => res.status === 200);
    expect(accepted).toHaveLength(10);
    expect(responses.filter((res) => res.status === 429).map((res) => res.body)).toEqual(
      Array(6).fill(INVITE_ERRORS.rateLimited),
    );
    for (const app of fleet) expect((await timedInvite(app, inviter.cookie, 'one-more@example.com')).status).toBe(429);

    const invited = accepted.map((res) => res.body.invitation.email as string).sort();
    await eventually(() => expect(smtp.messages).toHaveLength(10));
    await outboxSettled(fleet[0].dataSource);
    expect(smtp.messages.map((mail) => mail.to[0]).sort()).toEqual(invited);
  });

  it('parallel accepts of one invitation, spread over both instances, give exactly one winner', async () => {
    const tenant = await factories(fleet[0]).tenant();
    for (let round = 0; round < 3; round++) {
      const invitation = await factories(fleet[0]).invitation({ tenantId: tenant.id, role: 'admin' });
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => balanced().http.post(`/api/invitations/${invitation.id}`)),
      );

      const winners = answers.filter((res) => res.status === 200);
      expect(winners.map((res) => res.body)).toEqual([{ success: true, tenantId: tenant.id, role: 'admin' }]);
      expect(answers.filter((res) => res.status !== 200).map((res) => [res.status, res.body])).toEqual(
        Array(11).fill([400, INVITATION_POST.alreadyUsed]),
      );
      for (const app of fleet) {
        expect((await app.http.get(`/api/invitations/${invitation.id}`)).body).toEqual({
          valid: false,
          error: 'ALREADY_USED',
        });
      }
    }
  });
});

import { randomUUID } from 'node:crypto';
import { InvitationEntity } from '../src/database/entities';
import { eventually, outboxSettled } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { newInviter } from './support/inviting';
import { SmtpCatcher } from './support/smtp-catcher';
import { INVITE_ERRORS, ISO_8601, SUPER_ADMIN_ERRORS, UUID } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Issue 15: one answer per address, whatever the store. The same table runs on SQLite, MariaDB
 * (local identity store) and Cognito (cognito-local), with the same expected answers: status,
 * body, stored rows and what the SMTP server received. Each row has its own domain, so that
 * rows never see each other's users.
 */
const SAME_ADDRESS: [string, string, string][] = [
  // [what it tests, the address given, the user's stored address (its local part)]
  ['ASCII case', 'KATE', 'kate'],
  ['the Kelvin sign', '\u212Aate', 'kate'],
  ['dotless ı', 'm\u0131ke', 'mike'],
  ['İ', 'M\u0130KE', 'mike'],
  ['full-width letters', '\uFF4Bate', 'kate'],
  ['the ligature ﬀ', 'je\uFB00', 'jeff'],
  ['ß', 'stra\u00DFe', 'strasse'],
];
const OTHER_ADDRESS: [string, string, string][] = [
  ['a plus tag', 'Kate+News', 'kate'],
  ['an accent', 'Kat\u00E9', 'kate'],
];

const freshDomain = () => `d${randomUUID().slice(0, 8)}.example.com`;

describe('one answer per address (issue 15)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });
  beforeEach(async () => {
    await outboxSettled(t.dataSource);
    smtp.messages.length = 0;
  });

  describe('POST /api/org/invite', () => {
    const invitationRows = (tenantId: string) => t.dataSource.getRepository(InvitationEntity).findBy({ tenantId });

    /** An owner of a fresh tenant with one member, `<member>@<domain>`, inviting `<given>@<domain>`. */
    async function inviteLookAlike(given: string, member: string) {
      const domain = freshDomain();
      const inviter = await newInviter(t);
      await factories(t).member(inviter.tenant.id, { email: `${member}@${domain}`, role: 'member' });
      const email = `${given}@${domain}`;
      const res = await t.http.post('/api/org/invite').set('Cookie', inviter.cookie).send({ email, role: 'member' });
      return { res, email, tenantId: inviter.tenant.id };
    }

    it.each(SAME_ADDRESS)(
      'rule 8: %s: "%s@…" is the member\'s address: 400 "already a member", nothing stored or sent',
      async (_, given, member) => {
        const { res, tenantId } = await inviteLookAlike(given, member);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(INVITE_ERRORS.alreadyMember);
        expect(await invitationRows(tenantId)).toEqual([]);
        await outboxSettled(t.dataSource);
        expect(smtp.messages).toEqual([]);
      },
    );

    it.each(OTHER_ADDRESS)(
      'rules 9–11: %s makes another address: "%s@…" is invited, stored lower-cased, and mailed to the stored address',
      async (_, given, member) => {
        const { res, email, tenantId } = await inviteLookAlike(given, member);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: true,
          invitation: {
            id: expect.stringMatching(UUID),
            email,
            role: 'member',
            status: 'pending',
            expiresAt: expect.stringMatching(ISO_8601),
          },
        });
        const stored = email.toLowerCase();
        expect(await invitationRows(tenantId)).toEqual([
          expect.objectContaining({ id: res.body.invitation.id, email: stored }),
        ]);
        const [mail] = await eventually(() => {
          expect(smtp.messages).toHaveLength(1);
          return smtp.messages;
        });
        expect(mail.to).toEqual([stored]);
      },
    );
  });

  describe('POST /api/admin/super-admins', () => {
    let admin: string;
    beforeAll(async () => {
      admin = await sessionCookie(t, await factories(t).superAdmin());
    });

    /** A user `<stored>@<domain>`, and a grant asked for `<given>@<domain>`. */
    async function grantLookAlike(given: string, stored: string) {
      const domain = freshDomain();
      const user = await factories(t).user({ email: `${stored}@${domain}` });
      const res = await t.http
        .post('/api/admin/super-admins')
        .set('Cookie', admin)
        .send({ email: `${given}@${domain}` });
      return { res, user };
    }

    it.each(SAME_ADDRESS)('rule 3: %s: "%s@…" finds the user, who is granted the role', async (_, given, stored) => {
      const { res, user } = await grantLookAlike(given, stored);
      const granted = { id: user.id, email: user.email, platformRole: 'super_admin', tenantId: null, role: null };
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Super admin role granted', user: granted });
      expect(await t.identity.findById(user.id)).toMatchObject({ platformRole: 'super_admin' });
    });

    it.each(OTHER_ADDRESS)(
      'rule 3: %s makes another address: "%s@…" is 404 and nobody is granted',
      async (_, given, stored) => {
        const { res, user } = await grantLookAlike(given, stored);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(SUPER_ADMIN_ERRORS.notFound);
        expect(await t.identity.findById(user.id)).toMatchObject({ platformRole: null });
      },
    );
  });
});

/** OrgMembersService.invite (spec 4.9 rules 8–12): an invitation stored, and its e-mail recorded for the worker. */

import { apiFailure } from '../../test/support/api-failure';
import { withoutTable } from '../../test/support/without-table';
import { InviteDto } from '../invitations/dto/invite.dto';
import { OrgMembersController } from './org-members.controller';
import { OrgMembersService } from './org-members.service';
import { caller, NOW, TENANT, TOKEN, useOrgMembersService } from './org-members.service.spec-fixtures';

const dto = (email: string, role = 'member'): InviteDto => Object.assign(new InviteDto(), { email, role });

describe(OrgMembersService.name, () => {
  const t = useOrgMembersService();
  /** The e-mails recorded for sending. */
  const queued = async () => (await t.outboxRows.find()).map((row) => JSON.parse(row.payload));
  const expectNothingStored = async () => {
    expect(await t.invitations.count()).toBe(0);
    expect(await t.outboxRows.count()).toBe(0);
  };

  describe('invite (spec 4.9 rules 8–12)', () => {
    const origin = 'http://portal.example.com';
    /** Invites a@example.com and gives the refusal, as the invite route answers it. */
    const failedInvite = () =>
      apiFailure(
        t.service().invite(caller(), dto('a@example.com'), origin),
        OrgMembersController.prototype.inviteMember,
      );

    it('rules 9 and 11: stores a pending invitation and answers with the e-mail as submitted', async () => {
      const result = await t.service().invite(caller(), dto('New.Person@Example.COM', 'admin'), origin);

      expect(result).toEqual({
        success: true,
        invitation: {
          id: TOKEN,
          email: 'New.Person@Example.COM',
          role: 'admin',
          status: 'pending',
          expiresAt: '2026-03-08T10:00:00.000Z',
        },
      });
      expect(await t.invitations.find()).toEqual([
        {
          id: TOKEN,
          tenantId: TENANT,
          email: 'new.person@example.com',
          role: 'admin',
          status: 'pending',
          expiresAt: new Date('2026-03-08T10:00:00.000Z'),
          invitedBy: 'owner-1',
          createdAt: NOW,
        },
      ]);
    });

    it('rule 10: records the e-mail to the stored address, with tenant name, inviter, role, expiry, link; wakes the worker', async () => {
      await t.service().invite(caller(), dto('New.Person@Example.COM'), origin);
      expect(await queued()).toEqual([
        {
          to: 'new.person@example.com',
          tenantId: TENANT,
          tenantName: 'Acme',
          inviterEmail: 'owner@acme.example',
          role: 'member',
          expiresAt: '2026-03-08T10:00:00.000Z',
          link: `http://portal.example.com/invitations/${TOKEN}`,
        },
      ]);
      expect(await t.outboxRows.find()).toEqual([
        expect.objectContaining({
          invitationId: TOKEN,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: NOW,
          createdAt: NOW,
          sentAt: null,
        }),
      ]);
      expect(t.worker.kicks).toBe(1);
    });

    it('rule 10: PUBLIC_BASE_URL is the link base whatever the request origin is', async () => {
      await t
        .service({ PUBLIC_BASE_URL: 'https://portal.example.com' })
        .invite(caller(), dto('a@example.com'), 'http://evil.example');
      expect((await queued())[0].link).toBe(`https://portal.example.com/invitations/${TOKEN}`);
    });

    it('rule 10: PUBLIC_BASE_URL replaces the request headers in the link', async () => {
      await t
        .service({ PUBLIC_BASE_URL: 'https://app.example.org/portal/' })
        .invite(caller(), dto('a@example.com'), origin);
      expect((await queued())[0].link).toBe(`https://app.example.org/portal/invitations/${TOKEN}`);
    });

    it.each([
      ['has no name', null],
      ['has an empty name', ''],
    ])('rule 10: the tenant name is "Organisation" when the tenant %s', async (_, name) => {
      await t.tenants.update({ id: TENANT }, { name });
      await t.service().invite(caller(), dto('a@example.com'), origin);
      expect((await queued())[0].tenantName).toBe('Organisation');
    });

    it('rule 10: the tenant name is "Organisation" when the tenant row is absent', async () => {
      await t.service().invite(caller({ tenantId: 'no-such-tenant' }), dto('a@example.com'), origin);
      expect((await queued())[0].tenantName).toBe('Organisation');
    });

    it('rule 8: an e-mail already in the tenant, in any case, is 400 with nothing stored or sent', async () => {
      t.identity.add({ id: 'member-1', email: 'taken@example.com', tenantId: TENANT, role: 'member' });
      expect(await apiFailure(t.service().invite(caller(), dto('TAKEN@example.com'), origin))).toEqual({
        status: 400,
        body: { error: 'User is already a member of this organisation' },
      });
      await expectNothingStored();
      expect(t.worker.kicks).toBe(0);
    });

    it('rule 8: the same e-mail in another tenant is no obstacle', async () => {
      t.identity.add({ id: 'elsewhere', email: 'taken@example.com', tenantId: 'tenant-2', role: 'owner' });
      expect((await t.service().invite(caller(), dto('taken@example.com'), origin)).success).toBe(true);
    });

    it('rule 12: an identity store failure is 500 "Failed to create invitation", nothing stored or sent', async () => {
      t.identity.failure = new Error('store down');
      expect(await failedInvite()).toEqual({
        status: 500,
        body: { error: 'Failed to create invitation' },
      });
      await expectNothingStored();
    });

    it.each([
      ['invitation insert', 'tenant_invitations'],
      ['outbox insert (one transaction with the invitation)', 'invitation_email_outbox'],
    ])('rule 9: a failed %s is 500 "Failed to create invitation" and stores and sends nothing', async (_, table) => {
      await withoutTable(t.dataSource, table, async () => {
        expect(await failedInvite()).toEqual({
          status: 500,
          body: { error: 'Failed to create invitation' },
        });
      });
      await expectNothingStored();
      expect(t.worker.kicks).toBe(0);
      expect(t.errors).toHaveBeenCalledWith(
        expect.stringMatching(new RegExp(`^Failed to create invitation: .*${table}`)),
      );
    });
  });
});

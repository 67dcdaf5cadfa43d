/** InvitationsService.validate (spec 4.1): what an invitation's page shows, or why it cannot be used. */

import { HttpException, Logger } from '@nestjs/common';
import { answerOf, apiFailure } from '../../test/support/api-failure';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { DAY, NOW, TOKEN, useInvitationsService } from './invitations.service.spec-fixtures';

const validating = InvitationsController.prototype.validateInvitation;

describe(InvitationsService.name, () => {
  const t = useInvitationsService();

  describe('validate (spec 4.1)', () => {
    const invalid = { valid: false, error: 'INVALID' };

    it.each(['', '   ', '\t\n'])('rule 1: the empty token %p is 400 INVALID without a look-up', async (token) => {
      const findById = jest.spyOn(t.store, 'findById');
      expect(await apiFailure(t.service.validate(token), validating)).toEqual({ status: 400, body: invalid });
      expect(findById).not.toHaveBeenCalled();
    });

    it('rule 2: an unknown invitation is 404 INVALID', async () => {
      expect(await apiFailure(t.service.validate(TOKEN), validating)).toEqual({ status: 404, body: invalid });
    });

    it.each([
      ['a revoked invitation', {}],
      ['a revoked invitation past expiresAt', { expiresAt: new Date(NOW.getTime() - DAY) }],
    ])('rule 2: %s is 404 INVALID, as an unknown token, and stays revoked', async (_, overrides) => {
      t.store.add({ status: 'revoked', ...overrides });
      expect(await apiFailure(t.service.validate(TOKEN), validating)).toEqual({ status: 404, body: invalid });
      expect(t.store.rows.get(TOKEN)!.status).toBe('revoked');
    });

    it('rule 2: an invitation that cannot be loaded is 404 INVALID, logged without the token', async () => {
      t.store.add();
      jest.spyOn(t.store, 'findById').mockRejectedValue(new Error('connection lost'));
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation();
      expect(await apiFailure(t.service.validate(TOKEN), validating)).toEqual({ status: 404, body: invalid });
      expect(logged).toHaveBeenCalledWith('Loading an invitation failed: connection lost');
    });

    it('rule 3 before rule 4: an accepted invitation past expiresAt is 400 ALREADY_USED and stays accepted', async () => {
      t.store.add({ status: 'accepted', expiresAt: new Date(NOW.getTime() - DAY) });
      const markExpired = jest.spyOn(t.store, 'markExpired');
      expect(await apiFailure(t.service.validate(TOKEN), validating)).toEqual({
        status: 400,
        body: { valid: false, error: 'ALREADY_USED' },
      });
      expect(markExpired).not.toHaveBeenCalled();
      expect(t.store.rows.get(TOKEN)?.status).toBe('accepted');
    });

    it('rule 4: a pending invitation with expiresAt earlier than now is stored expired, then 400 EXPIRED', async () => {
      t.store.add({ expiresAt: new Date(NOW.getTime() - 1) });
      expect(await apiFailure(t.service.validate(TOKEN), validating)).toEqual({
        status: 400,
        body: { valid: false, error: 'EXPIRED' },
      });
      expect(t.store.rows.get(TOKEN)?.status).toBe('expired');
    });

    it('rule 4: counts the expiry once, however often the expired invitation is read', async () => {
      const expired = jest.spyOn(t.metrics, 'invitationExpired');
      t.store.add({ expiresAt: new Date(NOW.getTime() - 1) });
      await apiFailure(t.service.validate(TOKEN), validating);
      await apiFailure(t.service.validate(TOKEN), validating);
      expect(expired).toHaveBeenCalledTimes(1);
    });

    it('rule 5: the valid invitation with its tenant name and expiresAt in ISO 8601', async () => {
      t.store.add();
      t.store.tenantNames.set('tenant-1', 'Acme');
      expect(await t.service.validate(TOKEN)).toEqual({
        valid: true,
        email: 'invitee@example.com',
        tenantId: 'tenant-1',
        tenantName: 'Acme',
        role: 'admin',
        expiresAt: '2026-03-08T12:00:00.000Z',
      });
      expect(t.store.rows.get(TOKEN)?.status).toBe('pending');
    });

    it('rule 5: expiresAt equal to now is not earlier than now: still valid', async () => {
      t.store.add({ expiresAt: new Date(NOW) });
      expect(await t.service.validate(TOKEN)).toMatchObject({ valid: true });
    });

    it('rule 5: a stored status of expired before expiresAt is valid and left as it is', async () => {
      t.store.add({ status: 'expired' });
      expect(await t.service.validate(TOKEN)).toMatchObject({ valid: true });
      expect(t.store.rows.get(TOKEN)?.status).toBe('expired');
    });

    it.each([
      ['the tenant is absent', undefined],
      ['the name is null', null],
      ['the name is empty', ''],
      ['the name is white space', '  '],
    ])('rule 5: tenantName is "Organisation" when %s', async (_, name) => {
      t.store.add();
      if (name !== undefined) t.store.tenantNames.set('tenant-1', name);
      expect(await t.service.validate(TOKEN)).toMatchObject({ tenantName: 'Organisation' });
    });

    it('rule 6: the tenant look-up failing is 500 INVALID, with the failure as the cause for the log', async () => {
      t.store.add();
      const failure = new Error('connection lost');
      jest.spyOn(t.store, 'findTenantName').mockRejectedValue(failure);
      const error = await answerOf(t.service.validate(TOKEN), validating);
      expect(error).toBeInstanceOf(HttpException);
      expect([(error as HttpException).getStatus(), (error as HttpException).getResponse()]).toEqual([500, invalid]);
      expect((error as HttpException).cause).toBe(failure);
    });

    it('rule 6: storing the expired status failing is 500 INVALID', async () => {
      t.store.add({ expiresAt: new Date(NOW.getTime() - 1) });
      jest.spyOn(t.store, 'markExpired').mockRejectedValue(new Error('connection lost'));
      expect(await apiFailure(t.service.validate(TOKEN), validating)).toEqual({ status: 500, body: invalid });
    });
  });
});

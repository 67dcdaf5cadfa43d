/**
 * InvitationsService.accept (spec 4.2): step by step, in one round trip where the store can, and for
 * a tenant that is suspended or being deleted.
 */

import { Logger } from '@nestjs/common';
import { apiFailure } from '../../test/support/api-failure';
import { TenantStatus } from '../database/entities/tenant.entity';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { DAY, NOW, TOKEN, useInvitationsService } from './invitations.service.spec-fixtures';

const accepting = InvitationsController.prototype.acceptInvitation;
const refused = (error: string) => ({ success: false, error });

describe(InvitationsService.name, () => {
  const t = useInvitationsService();

  describe('accept (spec 4.2)', () => {
    it.each(['', '   '])('rule 1: the empty token %p is 400 INVALID without a look-up', async (token) => {
      const findById = jest.spyOn(t.store, 'findById');
      expect(await apiFailure(t.service.accept(token), accepting)).toEqual({ status: 400, body: refused('INVALID') });
      expect(findById).not.toHaveBeenCalled();
    });

    it('rule 2: an unknown invitation is 404 INVALID', async () => {
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
    });

    it('rule 2: a revoked invitation is 404 INVALID, as an unknown token, and is not accepted', async () => {
      t.store.add({ status: 'revoked' });
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(t.store.rows.get(TOKEN)!.status).toBe('revoked');
    });

    it('rule 2: a revocation that lands between the read and the update wins: 404 INVALID, not accepted', async () => {
      t.store.add();
      const findById = t.store.findById.bind(t.store);
      jest.spyOn(t.store, 'findById').mockImplementationOnce(async (id) => {
        const row = await findById(id);
        t.store.rows.get(TOKEN)!.status = 'revoked';
        return row;
      });
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(t.store.rows.get(TOKEN)!.status).toBe('revoked');
    });

    it('rule 2: an invitation that cannot be loaded is 404 INVALID and nothing is accepted', async () => {
      t.store.add();
      jest.spyOn(t.store, 'findById').mockRejectedValue(new Error('connection lost'));
      jest.spyOn(Logger.prototype, 'error').mockImplementation();
      const accept = jest.spyOn(t.store, 'accept');
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(accept).not.toHaveBeenCalled();
    });

    it('rule 3 before rule 4: an accepted invitation past expiresAt is 400 ALREADY_USED', async () => {
      t.store.add({ status: 'accepted', expiresAt: new Date(NOW.getTime() - DAY) });
      const accept = jest.spyOn(t.store, 'accept');
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({
        status: 400,
        body: refused('ALREADY_USED'),
      });
      expect(accept).not.toHaveBeenCalled();
    });

    it('rule 4: expiresAt earlier than now is 400 EXPIRED and the status is not updated', async () => {
      t.store.add({ expiresAt: new Date(NOW.getTime() - 1) });
      const markExpired = jest.spyOn(t.store, 'markExpired');
      const accept = jest.spyOn(t.store, 'accept');
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status: 400, body: refused('EXPIRED') });
      expect(markExpired).not.toHaveBeenCalled();
      expect(accept).not.toHaveBeenCalled();
      expect(t.store.rows.get(TOKEN)?.status).toBe('pending');
    });

    it('rule 5: accepts with the request time and answers {success, tenantId, role}', async () => {
      t.store.add();
      const accept = jest.spyOn(t.store, 'accept');
      const accepted = jest.spyOn(t.metrics, 'invitationAccepted');
      expect(await t.service.accept(TOKEN)).toEqual({ success: true, tenantId: 'tenant-1', role: 'admin' });
      expect(accept).toHaveBeenCalledWith(expect.objectContaining({ id: TOKEN }), NOW);
      expect(t.store.rows.get(TOKEN)?.status).toBe('accepted');
      expect(accepted).toHaveBeenCalledTimes(1);
    });

    it('rule 5: expiresAt equal to now, or a stored status of expired before expiresAt, is accepted', async () => {
      t.store.add({ expiresAt: new Date(NOW) });
      expect(await t.service.accept(TOKEN)).toMatchObject({ success: true });
      t.store.add({ id: 'other', status: 'expired' });
      expect(await t.service.accept('other')).toMatchObject({ success: true });
    });

    it('rule 5: losing the update to a parallel accept is 400 ALREADY_USED, and not counted', async () => {
      t.store.add();
      const accepted = jest.spyOn(t.metrics, 'invitationAccepted');
      jest.spyOn(t.store, 'accept').mockImplementationOnce(async () => {
        t.store.rows.get(TOKEN)!.status = 'accepted';
        return false;
      });
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({
        status: 400,
        body: refused('ALREADY_USED'),
      });
      expect(accepted).not.toHaveBeenCalled();
    });

    it('rule 5: an update that changes nothing although the invitation is acceptable is 500 INTERNAL_ERROR', async () => {
      t.store.add();
      jest.spyOn(t.store, 'accept').mockResolvedValue(false);
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({
        status: 500,
        body: refused('INTERNAL_ERROR'),
      });
    });

    it('rule 6: the update failing is 500 INTERNAL_ERROR', async () => {
      t.store.add();
      jest.spyOn(t.store, 'accept').mockRejectedValue(new Error('connection lost'));
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({
        status: 500,
        body: refused('INTERNAL_ERROR'),
      });
      expect(t.store.rows.get(TOKEN)?.status).toBe('pending');
    });
  });

  describe('accept (spec 4.2) in one round trip, where the store can (MySQL)', () => {
    beforeEach(() => (t.store.atOnce = true));

    it('rule 5: accepted by the attempt, answered from the row read after it, counted once; no read before it', async () => {
      t.store.add();
      const findById = jest.spyOn(t.store, 'findById');
      const accept = jest.spyOn(t.store, 'accept');
      const accepted = jest.spyOn(t.metrics, 'invitationAccepted');
      expect(await t.service.accept(TOKEN)).toEqual({ success: true, tenantId: 'tenant-1', role: 'admin' });
      expect(t.store.rows.get(TOKEN)?.status).toBe('accepted');
      expect(accepted).toHaveBeenCalledTimes(1);
      expect(accept).not.toHaveBeenCalled();
      expect(findById).toHaveBeenCalledTimes(1); // the fake's read after the update, in the same round trip
    });

    it.each([
      ['unknown (rule 2)', undefined, 404, 'INVALID'],
      ['revoked (rule 2)', { status: 'revoked' as const }, 404, 'INVALID'],
      [
        'accepted and past expiresAt (rule 3 before rule 4)',
        { status: 'accepted' as const, expiresAt: new Date(0) },
        400,
        'ALREADY_USED',
      ],
      ['past expiresAt (rule 4), left pending', { expiresAt: new Date(NOW.getTime() - 1) }, 400, 'EXPIRED'],
    ])('an invitation %s is refused from the row after the attempt: %i %s', async (_, overrides, status, error) => {
      if (overrides) t.store.add(overrides);
      const before = t.store.rows.get(TOKEN)?.status;
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status, body: refused(error) });
      expect(t.store.rows.get(TOKEN)?.status).toBe(before);
    });

    it.each([
      ['suspended', 403, 'ORGANISATION_SUSPENDED'],
      ['deleted', 404, 'INVALID'],
    ] as const)(
      'an acceptable invitation of a %s tenant is %i %s, stays pending',
      async (tenantStatus, status, error) => {
        t.store.add();
        t.store.closedTenants.add('tenant-1');
        t.tenants.statuses.set('tenant-1', tenantStatus);
        expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status, body: refused(error) });
        expect(t.store.rows.get(TOKEN)?.status).toBe('pending');
      },
    );

    it('the attempt failing: the rules run step by step, so a failed read is still rule 2 (404 INVALID)', async () => {
      t.store.add();
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      jest.spyOn(t.store, 'acceptAtOnce').mockRejectedValue(new Error('connection lost'));
      jest.spyOn(t.store, 'findById').mockRejectedValue(new Error('connection lost'));
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('connection lost'));
    });

    it('the attempt failing: a failed update is still rule 6 (500 INTERNAL_ERROR), still pending', async () => {
      t.store.add();
      jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      jest.spyOn(t.store, 'acceptAtOnce').mockRejectedValue(new Error('connection lost'));
      jest.spyOn(t.store, 'accept').mockRejectedValue(new Error('connection lost'));
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({
        status: 500,
        body: refused('INTERNAL_ERROR'),
      });
      expect(t.store.rows.get(TOKEN)?.status).toBe('pending');
    });

    it('the database unreachable (a connection failure): 404 INVALID at once, not tried step by step', async () => {
      t.store.add();
      const lost = Object.assign(new Error('connect ETIMEDOUT'), { fatal: true });
      jest.spyOn(t.store, 'acceptAtOnce').mockRejectedValue(lost);
      const findById = jest.spyOn(t.store, 'findById');
      const error = jest.spyOn(Logger.prototype, 'error').mockImplementation();
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(findById).not.toHaveBeenCalled();
      expect(error).toHaveBeenCalledWith('Loading an invitation failed: connect ETIMEDOUT');
      expect(t.store.rows.get(TOKEN)?.status).toBe('pending');
    });

    it('the attempt failing after all went through: the step-by-step read finds it accepted, 400 ALREADY_USED', async () => {
      t.store.add();
      jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      jest.spyOn(t.store, 'acceptAtOnce').mockImplementationOnce(async () => {
        t.store.rows.get(TOKEN)!.status = 'accepted';
        throw new Error('connection lost');
      });
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({
        status: 400,
        body: refused('ALREADY_USED'),
      });
    });
  });

  describe('accept, for a tenant in a state that the spec does not know', () => {
    /** The store's update holds the tenant's status: it changes nothing for a closed tenant. */
    const closedTenant = (status: TenantStatus) => {
      t.tenants.statuses.set('tenant-1', status);
      jest.spyOn(t.store, 'accept').mockResolvedValue(false);
    };

    it('an acceptable invitation of a suspended tenant is 403 ORGANISATION_SUSPENDED and stays pending, not counted', async () => {
      t.store.add();
      closedTenant('suspended');
      const accepted = jest.spyOn(t.metrics, 'invitationAccepted');
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({
        status: 403,
        body: refused('ORGANISATION_SUSPENDED'),
      });
      expect(t.store.rows.get(TOKEN)?.status).toBe('pending');
      expect(accepted).not.toHaveBeenCalled();
    });

    it('an invitation of a tenant being deleted is 404 INVALID, as a revoked one', async () => {
      t.store.add();
      closedTenant('deleted');
      expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
    });

    it.each([
      ['accepted', { status: 'accepted' as const }, 400, 'ALREADY_USED'],
      ['past expiresAt', { expiresAt: new Date(NOW.getTime() - 1) }, 400, 'EXPIRED'],
      ['revoked', { status: 'revoked' as const }, 404, 'INVALID'],
    ])(
      'the spec rules come first: an invitation %s of a suspended tenant is %i %s, without reading the tenant',
      async (_, overrides, status, error) => {
        t.store.add(overrides);
        closedTenant('suspended');
        const statusOf = jest.spyOn(t.tenants, 'statusOf');
        expect(await apiFailure(t.service.accept(TOKEN), accepting)).toEqual({ status, body: refused(error) });
        expect(statusOf).not.toHaveBeenCalled();
      },
    );

    it('an open tenant costs no read of its status: the update holds it', async () => {
      t.store.add();
      const statusOf = jest.spyOn(t.tenants, 'statusOf');
      expect(await t.service.accept(TOKEN)).toMatchObject({ success: true });
      expect(statusOf).not.toHaveBeenCalled();
    });

    it('validation (spec 4.1) is unchanged: an invitation of a suspended tenant is valid', async () => {
      t.store.add();
      t.tenants.statuses.set('tenant-1', 'suspended');
      expect(await t.service.validate(TOKEN)).toMatchObject({ valid: true });
    });
  });
});

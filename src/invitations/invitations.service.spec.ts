import { HttpException, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { answerOf, apiFailure } from '../../test/support/api-failure';
import { TestClock } from '../../test/support/test-clock';
import { Clock } from '../common/clock';
import { InvitationEntity } from '../database/entities';
import { Metrics } from '../metrics/metrics';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { InvitationsStore } from './invitations.store';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const TOKEN = '6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10';

/** A hand-written in-memory store with the real one's semantics: exact ids, conditional updates. */
class FakeInvitationsStore implements Pick<InvitationsStore, 'findById' | 'findTenantName' | 'markExpired' | 'accept'> {
  readonly rows = new Map<string, InvitationEntity>();
  readonly tenantNames = new Map<string, string | null>();

  add(overrides: Partial<InvitationEntity> = {}): InvitationEntity {
    const row: InvitationEntity = {
      id: TOKEN,
      tenantId: 'tenant-1',
      email: 'invitee@example.com',
      role: 'admin',
      status: 'pending',
      expiresAt: new Date(NOW.getTime() + 7 * DAY),
      invitedBy: 'inviter',
      createdAt: NOW,
      ...overrides,
    };
    this.rows.set(row.id, row);
    return { ...row };
  }
  async findById(id: string) {
    const row = this.rows.get(id);
    return row ? { ...row } : null;
  }
  async findTenantName(tenantId: string) {
    return this.tenantNames.get(tenantId) ?? null;
  }
  async markExpired({ id }: InvitationEntity) {
    const row = this.rows.get(id);
    if (row?.status !== 'pending') return false;
    row.status = 'expired';
    return true;
  }
  async accept({ id }: InvitationEntity, now: Date) {
    const row = this.rows.get(id);
    if (!row || row.status === 'accepted' || row.status === 'revoked' || row.expiresAt < now) return false;
    row.status = 'accepted';
    return true;
  }
}

const validating = InvitationsController.prototype.validateInvitation;
const accepting = InvitationsController.prototype.acceptInvitation;

describe(InvitationsService.name, () => {
  let store: FakeInvitationsStore;
  let service: InvitationsService;
  let metrics: Metrics;

  beforeEach(async () => {
    store = new FakeInvitationsStore();
    const clock = new TestClock(NOW);
    const moduleRef = await Test.createTestingModule({
      providers: [
        InvitationsService,
        Metrics,
        { provide: InvitationsStore, useValue: store },
        { provide: Clock, useValue: clock },
      ],
    }).compile();
    service = moduleRef.get(InvitationsService);
    metrics = moduleRef.get(Metrics);
    // The testing module turns Nest's logger back on: failures are logged, and asserted where it matters.
    jest.spyOn(Logger.prototype, 'error').mockImplementation();
  });
  afterEach(() => jest.restoreAllMocks());

  describe('validate (spec 4.1)', () => {
    const invalid = { valid: false, error: 'INVALID' };

    it.each(['', '   ', '\t\n'])('rule 1: the empty token %p is 400 INVALID without a look-up', async (token) => {
      const findById = jest.spyOn(store, 'findById');
      expect(await apiFailure(service.validate(token), validating)).toEqual({ status: 400, body: invalid });
      expect(findById).not.toHaveBeenCalled();
    });

    it('rule 2: an unknown invitation is 404 INVALID', async () => {
      expect(await apiFailure(service.validate(TOKEN), validating)).toEqual({ status: 404, body: invalid });
    });

    it.each([
      ['a revoked invitation', {}],
      ['a revoked invitation past expiresAt', { expiresAt: new Date(NOW.getTime() - DAY) }],
    ])('rule 2: %s is 404 INVALID, as an unknown token, and stays revoked (issue 12)', async (_, overrides) => {
      store.add({ status: 'revoked', ...overrides });
      expect(await apiFailure(service.validate(TOKEN), validating)).toEqual({ status: 404, body: invalid });
      expect(store.rows.get(TOKEN)!.status).toBe('revoked');
    });

    it('rule 2: an invitation that cannot be loaded is 404 INVALID, logged without the token', async () => {
      store.add();
      jest.spyOn(store, 'findById').mockRejectedValue(new Error('connection lost'));
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation();
      expect(await apiFailure(service.validate(TOKEN), validating)).toEqual({ status: 404, body: invalid });
      expect(logged).toHaveBeenCalledWith('Loading an invitation failed: connection lost');
    });

    it('rule 3 before rule 4: an accepted invitation past expiresAt is 400 ALREADY_USED and stays accepted', async () => {
      store.add({ status: 'accepted', expiresAt: new Date(NOW.getTime() - DAY) });
      const markExpired = jest.spyOn(store, 'markExpired');
      expect(await apiFailure(service.validate(TOKEN), validating)).toEqual({
        status: 400,
        body: { valid: false, error: 'ALREADY_USED' },
      });
      expect(markExpired).not.toHaveBeenCalled();
      expect(store.rows.get(TOKEN)?.status).toBe('accepted');
    });

    it('rule 4: a pending invitation with expiresAt earlier than now is stored expired, then 400 EXPIRED', async () => {
      store.add({ expiresAt: new Date(NOW.getTime() - 1) });
      expect(await apiFailure(service.validate(TOKEN), validating)).toEqual({
        status: 400,
        body: { valid: false, error: 'EXPIRED' },
      });
      expect(store.rows.get(TOKEN)?.status).toBe('expired');
    });

    it('rule 4: counts the expiry once, however often the expired invitation is read', async () => {
      const expired = jest.spyOn(metrics, 'invitationExpired');
      store.add({ expiresAt: new Date(NOW.getTime() - 1) });
      await apiFailure(service.validate(TOKEN), validating);
      await apiFailure(service.validate(TOKEN), validating);
      expect(expired).toHaveBeenCalledTimes(1);
    });

    it('rule 5: the valid invitation with its tenant name and expiresAt in ISO 8601', async () => {
      store.add();
      store.tenantNames.set('tenant-1', 'Acme');
      expect(await service.validate(TOKEN)).toEqual({
        valid: true,
        email: 'invitee@example.com',
        tenantId: 'tenant-1',
        tenantName: 'Acme',
        role: 'admin',
        expiresAt: '2026-03-08T12:00:00.000Z',
      });
      expect(store.rows.get(TOKEN)?.status).toBe('pending');
    });

    it('rule 5: expiresAt equal to now is not earlier than now: still valid', async () => {
      store.add({ expiresAt: new Date(NOW) });
      expect(await service.validate(TOKEN)).toMatchObject({ valid: true });
    });

    it('rule 5: a stored status of expired before expiresAt is valid and left as it is', async () => {
      store.add({ status: 'expired' });
      expect(await service.validate(TOKEN)).toMatchObject({ valid: true });
      expect(store.rows.get(TOKEN)?.status).toBe('expired');
    });

    it.each([
      ['the tenant is absent', undefined],
      ['the name is null', null],
      ['the name is empty', ''],
      ['the name is white space', '  '],
    ])('rule 5: tenantName is "Organisation" when %s', async (_, name) => {
      store.add();
      if (name !== undefined) store.tenantNames.set('tenant-1', name);
      expect(await service.validate(TOKEN)).toMatchObject({ tenantName: 'Organisation' });
    });

    it('rule 6: the tenant look-up failing is 500 INVALID, with the failure as the cause for the log', async () => {
      store.add();
      const failure = new Error('connection lost');
      jest.spyOn(store, 'findTenantName').mockRejectedValue(failure);
      const error = await answerOf(service.validate(TOKEN), validating);
      expect(error).toBeInstanceOf(HttpException);
      expect([(error as HttpException).getStatus(), (error as HttpException).getResponse()]).toEqual([500, invalid]);
      expect((error as HttpException).cause).toBe(failure);
    });

    it('rule 6: storing the expired status failing is 500 INVALID', async () => {
      store.add({ expiresAt: new Date(NOW.getTime() - 1) });
      jest.spyOn(store, 'markExpired').mockRejectedValue(new Error('connection lost'));
      expect(await apiFailure(service.validate(TOKEN), validating)).toEqual({ status: 500, body: invalid });
    });
  });

  describe('accept (spec 4.2)', () => {
    const refused = (error: string) => ({ success: false, error });

    it.each(['', '   '])('rule 1: the empty token %p is 400 INVALID without a look-up', async (token) => {
      const findById = jest.spyOn(store, 'findById');
      expect(await apiFailure(service.accept(token), accepting)).toEqual({ status: 400, body: refused('INVALID') });
      expect(findById).not.toHaveBeenCalled();
    });

    it('rule 2: an unknown invitation is 404 INVALID', async () => {
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
    });

    it('rule 2: a revoked invitation is 404 INVALID, as an unknown token, and is not accepted (issue 12)', async () => {
      store.add({ status: 'revoked' });
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(store.rows.get(TOKEN)!.status).toBe('revoked');
    });

    it('rule 2: a revocation that lands between the read and the update wins: 404 INVALID, not accepted', async () => {
      store.add();
      const findById = store.findById.bind(store);
      jest.spyOn(store, 'findById').mockImplementationOnce(async (id) => {
        const row = await findById(id);
        store.rows.get(TOKEN)!.status = 'revoked';
        return row;
      });
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(store.rows.get(TOKEN)!.status).toBe('revoked');
    });

    it('rule 2: an invitation that cannot be loaded is 404 INVALID and nothing is accepted', async () => {
      store.add();
      jest.spyOn(store, 'findById').mockRejectedValue(new Error('connection lost'));
      jest.spyOn(Logger.prototype, 'error').mockImplementation();
      const accept = jest.spyOn(store, 'accept');
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(accept).not.toHaveBeenCalled();
    });

    it('rule 3 before rule 4: an accepted invitation past expiresAt is 400 ALREADY_USED', async () => {
      store.add({ status: 'accepted', expiresAt: new Date(NOW.getTime() - DAY) });
      const accept = jest.spyOn(store, 'accept');
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({
        status: 400,
        body: refused('ALREADY_USED'),
      });
      expect(accept).not.toHaveBeenCalled();
    });

    it('rule 4: expiresAt earlier than now is 400 EXPIRED and the status is not updated', async () => {
      store.add({ expiresAt: new Date(NOW.getTime() - 1) });
      const markExpired = jest.spyOn(store, 'markExpired');
      const accept = jest.spyOn(store, 'accept');
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status: 400, body: refused('EXPIRED') });
      expect(markExpired).not.toHaveBeenCalled();
      expect(accept).not.toHaveBeenCalled();
      expect(store.rows.get(TOKEN)?.status).toBe('pending');
    });

    it('rule 5: accepts with the request time and answers {success, tenantId, role}', async () => {
      store.add();
      const accept = jest.spyOn(store, 'accept');
      const accepted = jest.spyOn(metrics, 'invitationAccepted');
      expect(await service.accept(TOKEN)).toEqual({ success: true, tenantId: 'tenant-1', role: 'admin' });
      expect(accept).toHaveBeenCalledWith(expect.objectContaining({ id: TOKEN }), NOW);
      expect(store.rows.get(TOKEN)?.status).toBe('accepted');
      expect(accepted).toHaveBeenCalledTimes(1);
    });

    it('rule 5: expiresAt equal to now, or a stored status of expired before expiresAt, is accepted', async () => {
      store.add({ expiresAt: new Date(NOW) });
      expect(await service.accept(TOKEN)).toMatchObject({ success: true });
      store.add({ id: 'other', status: 'expired' });
      expect(await service.accept('other')).toMatchObject({ success: true });
    });

    it('rule 5: losing the update to a parallel accept is 400 ALREADY_USED, and not counted', async () => {
      store.add();
      const accepted = jest.spyOn(metrics, 'invitationAccepted');
      jest.spyOn(store, 'accept').mockImplementationOnce(async () => {
        store.rows.get(TOKEN)!.status = 'accepted';
        return false;
      });
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({
        status: 400,
        body: refused('ALREADY_USED'),
      });
      expect(accepted).not.toHaveBeenCalled();
    });

    it('rule 5: an update that changes nothing although the invitation is acceptable is 500 INTERNAL_ERROR', async () => {
      store.add();
      jest.spyOn(store, 'accept').mockResolvedValue(false);
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({
        status: 500,
        body: refused('INTERNAL_ERROR'),
      });
    });

    it('rule 6: the update failing is 500 INTERNAL_ERROR', async () => {
      store.add();
      jest.spyOn(store, 'accept').mockRejectedValue(new Error('connection lost'));
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({
        status: 500,
        body: refused('INTERNAL_ERROR'),
      });
      expect(store.rows.get(TOKEN)?.status).toBe('pending');
    });
  });
});

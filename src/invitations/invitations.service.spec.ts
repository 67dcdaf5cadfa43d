import { HttpException, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { answerOf, apiFailure } from '../../test/support/api-failure';
import { TestClock } from '../../test/support/test-clock';
import { Clock } from '../common/clock';
import { InvitationEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { Metrics } from '../metrics/metrics';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { InvitationsStore } from './invitations.store';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const TOKEN = '6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10';

/** A hand-written in-memory store with the real one's semantics: exact ids, conditional updates. */
class FakeInvitationsStore implements Pick<
  InvitationsStore,
  'findById' | 'findTenantName' | 'markExpired' | 'accept' | 'acceptAtOnce'
> {
  readonly rows = new Map<string, InvitationEntity>();
  readonly tenantNames = new Map<string, string | null>();
  /** Whether acceptAtOnce accepts in one round trip (the store on MySQL) or is not there (on SQLite). */
  atOnce = false;
  /** The tenants whose invitations the conditional update holds back (suspended, being deleted). */
  readonly closedTenants = new Set<string>();

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
    return this.acceptIfOpen(id, now);
  }
  async acceptAtOnce(id: string, now: Date) {
    if (!this.atOnce) return undefined;
    const accepted = this.acceptIfOpen(id, now);
    return { accepted, invitation: await this.findById(id) };
  }
  private acceptIfOpen(id: string, now: Date): boolean {
    const row = this.rows.get(id);
    if (!row || row.status === 'accepted' || row.status === 'revoked' || row.expiresAt < now) return false;
    if (this.closedTenants.has(row.tenantId)) return false;
    row.status = 'accepted';
    return true;
  }
}

/** Tenants' statuses by id; a tenant not set is absent. */
class FakeTenantStatuses implements Pick<TenantStatusReader, 'statusOf'> {
  readonly statuses = new Map<string, TenantStatus>();
  async statusOf(tenantId: string) {
    return this.statuses.get(tenantId) ?? null;
  }
}

const validating = InvitationsController.prototype.validateInvitation;
const accepting = InvitationsController.prototype.acceptInvitation;

describe(InvitationsService.name, () => {
  let store: FakeInvitationsStore;
  let tenants: FakeTenantStatuses;
  let service: InvitationsService;
  let metrics: Metrics;

  beforeEach(async () => {
    store = new FakeInvitationsStore();
    tenants = new FakeTenantStatuses();
    const clock = new TestClock(NOW);
    const moduleRef = await Test.createTestingModule({
      providers: [
        InvitationsService,
        Metrics,
        { provide: InvitationsStore, useValue: store },
        { provide: Clock, useValue: clock },
        { provide: TenantStatusReader, useValue: tenants },
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
    ])('rule 2: %s is 404 INVALID, as an unknown token, and stays revoked', async (_, overrides) => {
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

    it('rule 2: a revoked invitation is 404 INVALID, as an unknown token, and is not accepted', async () => {
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

  describe('accept (spec 4.2) in one round trip, where the store can (MySQL)', () => {
    const refused = (error: string) => ({ success: false, error });
    beforeEach(() => (store.atOnce = true));

    it('rule 5: accepted by the attempt, answered from the row read after it, counted once; no read before it', async () => {
      store.add();
      const findById = jest.spyOn(store, 'findById');
      const accept = jest.spyOn(store, 'accept');
      const accepted = jest.spyOn(metrics, 'invitationAccepted');
      expect(await service.accept(TOKEN)).toEqual({ success: true, tenantId: 'tenant-1', role: 'admin' });
      expect(store.rows.get(TOKEN)?.status).toBe('accepted');
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
      if (overrides) store.add(overrides);
      const before = store.rows.get(TOKEN)?.status;
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status, body: refused(error) });
      expect(store.rows.get(TOKEN)?.status).toBe(before);
    });

    it.each([
      ['suspended', 403, 'ORGANISATION_SUSPENDED'],
      ['deleted', 404, 'INVALID'],
    ] as const)(
      'an acceptable invitation of a %s tenant is %i %s, stays pending',
      async (tenantStatus, status, error) => {
        store.add();
        store.closedTenants.add('tenant-1');
        tenants.statuses.set('tenant-1', tenantStatus);
        expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status, body: refused(error) });
        expect(store.rows.get(TOKEN)?.status).toBe('pending');
      },
    );

    it('the attempt failing: the rules run step by step, so a failed read is still rule 2 (404 INVALID)', async () => {
      store.add();
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      jest.spyOn(store, 'acceptAtOnce').mockRejectedValue(new Error('connection lost'));
      jest.spyOn(store, 'findById').mockRejectedValue(new Error('connection lost'));
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('connection lost'));
    });

    it('the attempt failing: a failed update is still rule 6 (500 INTERNAL_ERROR), still pending', async () => {
      store.add();
      jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      jest.spyOn(store, 'acceptAtOnce').mockRejectedValue(new Error('connection lost'));
      jest.spyOn(store, 'accept').mockRejectedValue(new Error('connection lost'));
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({
        status: 500,
        body: refused('INTERNAL_ERROR'),
      });
      expect(store.rows.get(TOKEN)?.status).toBe('pending');
    });

    it('the database unreachable (a connection failure): 404 INVALID at once, not tried step by step', async () => {
      store.add();
      const lost = Object.assign(new Error('connect ETIMEDOUT'), { fatal: true });
      jest.spyOn(store, 'acceptAtOnce').mockRejectedValue(lost);
      const findById = jest.spyOn(store, 'findById');
      const error = jest.spyOn(Logger.prototype, 'error').mockImplementation();
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
      expect(findById).not.toHaveBeenCalled();
      expect(error).toHaveBeenCalledWith('Loading an invitation failed: connect ETIMEDOUT');
      expect(store.rows.get(TOKEN)?.status).toBe('pending');
    });

    it('the attempt failing after all went through: the step-by-step read finds it accepted, 400 ALREADY_USED', async () => {
      store.add();
      jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      jest.spyOn(store, 'acceptAtOnce').mockImplementationOnce(async () => {
        store.rows.get(TOKEN)!.status = 'accepted';
        throw new Error('connection lost');
      });
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({
        status: 400,
        body: refused('ALREADY_USED'),
      });
    });
  });

  describe('accept, for a tenant in a state that the spec does not know', () => {
    const refused = (error: string) => ({ success: false, error });
    /** The store's update holds the tenant's status: it changes nothing for a closed tenant. */
    const closedTenant = (status: TenantStatus) => {
      tenants.statuses.set('tenant-1', status);
      jest.spyOn(store, 'accept').mockResolvedValue(false);
    };

    it('an acceptable invitation of a suspended tenant is 403 ORGANISATION_SUSPENDED and stays pending, not counted', async () => {
      store.add();
      closedTenant('suspended');
      const accepted = jest.spyOn(metrics, 'invitationAccepted');
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({
        status: 403,
        body: refused('ORGANISATION_SUSPENDED'),
      });
      expect(store.rows.get(TOKEN)?.status).toBe('pending');
      expect(accepted).not.toHaveBeenCalled();
    });

    it('an invitation of a tenant being deleted is 404 INVALID, as a revoked one', async () => {
      store.add();
      closedTenant('deleted');
      expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status: 404, body: refused('INVALID') });
    });

    it.each([
      ['accepted', { status: 'accepted' as const }, 400, 'ALREADY_USED'],
      ['past expiresAt', { expiresAt: new Date(NOW.getTime() - 1) }, 400, 'EXPIRED'],
      ['revoked', { status: 'revoked' as const }, 404, 'INVALID'],
    ])(
      'the spec rules come first: an invitation %s of a suspended tenant is %i %s, without reading the tenant',
      async (_, overrides, status, error) => {
        store.add(overrides);
        closedTenant('suspended');
        const statusOf = jest.spyOn(tenants, 'statusOf');
        expect(await apiFailure(service.accept(TOKEN), accepting)).toEqual({ status, body: refused(error) });
        expect(statusOf).not.toHaveBeenCalled();
      },
    );

    it('an open tenant costs no read of its status: the update holds it', async () => {
      store.add();
      const statusOf = jest.spyOn(tenants, 'statusOf');
      expect(await service.accept(TOKEN)).toMatchObject({ success: true });
      expect(statusOf).not.toHaveBeenCalled();
    });

    it('validation (spec 4.1) is unchanged: an invitation of a suspended tenant is valid', async () => {
      store.add();
      tenants.statuses.set('tenant-1', 'suspended');
      expect(await service.validate(TOKEN)).toMatchObject({ valid: true });
    });
  });
});

import { HttpException, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { InvitationsService } from '../invitations/invitations.service';
import { InvitationsStore } from '../invitations/invitations.store';
import { JoiningService } from '../joining/joining.service';
import { InvitationPageService } from './invitation-page.service';

const TOKEN = '6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10';
const VALID = {
  valid: true as const,
  email: 'carol@example.com',
  tenantId: 'tenant-1',
  tenantName: 'Acme',
  role: 'member',
  expiresAt: '2026-03-08T12:00:00.000Z',
};

/** The refusals the page explains: status, error code, view. */
const REFUSALS: [number, string, string][] = [
  [400, 'ALREADY_USED', 'already-used'],
  [400, 'EXPIRED', 'expired'],
  [404, 'INVALID', 'invalid'],
  [400, 'INVALID', 'invalid'],
];

/** Typed hand-written doubles of the two collaborators: each call is queued by the test. */
class FakeInvitations implements Pick<InvitationsService, 'validate' | 'accept'> {
  validate = jest.fn<ReturnType<InvitationsService['validate']>, [string]>();
  accept = jest.fn<ReturnType<InvitationsService['accept']>, [string]>();
}
class FakeStore implements Pick<InvitationsStore, 'findTenantName'> {
  findTenantName = jest.fn<Promise<string | null>, [string]>();
}
class FakeJoining implements Pick<JoiningService, 'join'> {
  join = jest.fn<ReturnType<JoiningService['join']>, Parameters<JoiningService['join']>>();
}
class FakeTenantStatuses implements Pick<TenantStatusReader, 'statusOf'> {
  statusOf = jest.fn<Promise<TenantStatus | null>, [string]>().mockResolvedValue('active');
}

describe(InvitationPageService.name, () => {
  let invitations: FakeInvitations;
  let store: FakeStore;
  let joining: FakeJoining;
  let tenants: FakeTenantStatuses;
  let page: InvitationPageService;
  let loggedErrors: jest.SpyInstance;

  beforeEach(async () => {
    invitations = new FakeInvitations();
    store = new FakeStore();
    joining = new FakeJoining();
    tenants = new FakeTenantStatuses();
    const moduleRef = await Test.createTestingModule({
      providers: [
        InvitationPageService,
        { provide: InvitationsService, useValue: invitations },
        { provide: InvitationsStore, useValue: store },
        { provide: JoiningService, useValue: joining },
        { provide: TenantStatusReader, useValue: tenants },
      ],
    }).compile();
    page = moduleRef.get(InvitationPageService);
    loggedErrors = jest.spyOn(Logger.prototype, 'error').mockImplementation();
  });
  afterEach(() => jest.restoreAllMocks());

  describe('show (GET /invitations/{token})', () => {
    it('a valid invitation is shown with its organisation, address, role and expiry, and is not accepted', async () => {
      invitations.validate.mockResolvedValue(VALID);
      expect(await page.show(TOKEN)).toEqual({
        status: 200,
        view: {
          kind: 'invitation',
          tenantName: 'Acme',
          email: 'carol@example.com',
          role: 'member',
          expiresAt: new Date(VALID.expiresAt),
        },
      });
      expect(invitations.validate).toHaveBeenCalledWith(TOKEN);
      expect(invitations.accept).not.toHaveBeenCalled();
    });

    it("a valid invitation of a suspended tenant says so, without the Accept button, with the API's status 200", async () => {
      invitations.validate.mockResolvedValue(VALID);
      tenants.statusOf.mockResolvedValue('suspended');
      expect(await page.show(TOKEN)).toEqual({ status: 200, view: { kind: 'suspended' } });
      expect(tenants.statusOf).toHaveBeenCalledWith('tenant-1');
    });

    it.each(REFUSALS)(
      'a %i {valid:false, error:%s} is the %s message, with that status',
      async (status, error, kind) => {
        invitations.validate.mockRejectedValue(new HttpException({ valid: false, error }, status));
        expect(await page.show(TOKEN)).toEqual({ status, view: { kind } });
        expect(loggedErrors).not.toHaveBeenCalled();
      },
    );

    it('the spec 500 {valid:false, error:"INVALID"} is "Something went wrong", not "not valid", and is logged with its cause', async () => {
      invitations.validate.mockRejectedValue(
        new HttpException({ valid: false, error: 'INVALID' }, 500, { cause: new Error('disk full') }),
      );
      expect(await page.show(TOKEN)).toEqual({ status: 500, view: { kind: 'failed' } });
      expect(loggedErrors).toHaveBeenCalledWith(
        'The invitation page failed: disk full',
        expect.stringContaining('disk full'),
      );
    });

    it('any other error is "Something went wrong", logged without the token', async () => {
      invitations.validate.mockRejectedValue(new Error('connection lost'));
      expect(await page.show(TOKEN)).toEqual({ status: 500, view: { kind: 'failed' } });
      expect(loggedErrors).toHaveBeenCalledTimes(1);
      expect(JSON.stringify(loggedErrors.mock.calls)).not.toContain(TOKEN);
    });

    it('an HttpException whose body names no known code is "Something went wrong"', async () => {
      invitations.validate.mockRejectedValue(new HttpException({ error: 'Request timed out' }, 400));
      expect(await page.show(TOKEN)).toEqual({ status: 500, view: { kind: 'failed' } });
    });
  });

  describe('accept (POST /invitations/{token})', () => {
    it('success names the tenant and the role', async () => {
      invitations.accept.mockResolvedValue({ success: true, tenantId: 'tenant-1', role: 'admin' });
      store.findTenantName.mockResolvedValue('Acme');
      expect(await page.accept(TOKEN)).toEqual({
        status: 200,
        view: { kind: 'accepted', tenantName: 'Acme', role: 'admin' },
      });
      expect(invitations.accept).toHaveBeenCalledWith(TOKEN);
      expect(store.findTenantName).toHaveBeenCalledWith('tenant-1');
      expect(invitations.validate).not.toHaveBeenCalled();
    });

    it('a tenant without a name, or whose name cannot be read, is "Organisation": the acceptance still shows', async () => {
      invitations.accept.mockResolvedValue({ success: true, tenantId: 'tenant-1', role: 'member' });
      store.findTenantName.mockResolvedValueOnce(null).mockRejectedValueOnce(new Error('connection lost'));
      const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      expect((await page.accept(TOKEN)).view).toEqual({ kind: 'accepted', tenantName: 'Organisation', role: 'member' });
      expect(await page.accept(TOKEN)).toEqual({
        status: 200,
        view: { kind: 'accepted', tenantName: 'Organisation', role: 'member' },
      });
      expect(warned).toHaveBeenCalledTimes(1);
    });

    it.each(REFUSALS)('a %i {success:false, error:%s} is the %s message', async (status, error, kind) => {
      invitations.accept.mockRejectedValue(new HttpException({ success: false, error }, status));
      expect(await page.accept(TOKEN)).toEqual({ status, view: { kind } });
    });

    it("a 403 {success:false, error:'ORGANISATION_SUSPENDED'} is the suspended message, with that status", async () => {
      invitations.accept.mockRejectedValue(new HttpException({ success: false, error: 'ORGANISATION_SUSPENDED' }, 403));
      expect(await page.accept(TOKEN)).toEqual({ status: 403, view: { kind: 'suspended' } });
      expect(loggedErrors).not.toHaveBeenCalled();
    });

    it.each([
      ['the spec 500 INTERNAL_ERROR', new HttpException({ success: false, error: 'INTERNAL_ERROR' }, 500)],
      ['a raw error', new TypeError('boom')],
      ['a thrown string', 'boom'],
    ])('%s is "Something went wrong"', async (_, failure) => {
      invitations.accept.mockRejectedValue(failure);
      expect(await page.accept(TOKEN)).toEqual({ status: 500, view: { kind: 'failed' } });
      expect(loggedErrors).toHaveBeenCalledTimes(1);
    });
  });

  describe('a visitor who is signed in, or sent to sign in', () => {
    const caller = (email: string | null) => ({ id: 'u-1', email, userType: null, tenantId: null, role: null });
    const SIGN_IN = 'https://id.example.com/sign-in?return_to=x';

    it('show: the invited address (any spelling) is offered Join; another address, or none, is told so, not shown it', async () => {
      invitations.validate.mockResolvedValue(VALID);
      expect((await page.show(TOKEN, { caller: caller('CAROL@example.com') })).view).toMatchObject({
        kind: 'invitation',
        action: 'join',
      });
      expect(await page.show(TOKEN, { caller: caller('mallory@example.com'), signInUrl: SIGN_IN })).toEqual({
        status: 200,
        view: { kind: 'other-address', signedInAs: 'mallory@example.com', signInUrl: SIGN_IN },
      });
      expect((await page.show(TOKEN, { caller: caller(null) })).view).toEqual({
        kind: 'other-address',
        signedInAs: null,
      });
    });

    it('show: without a session, the way forward is the sign-in link when there is one', async () => {
      invitations.validate.mockResolvedValue(VALID);
      expect((await page.show(TOKEN, { signInUrl: SIGN_IN })).view).toMatchObject({
        kind: 'invitation',
        action: { signInUrl: SIGN_IN },
      });
    });

    it('accept: a signed-in visitor joins, and never goes through the spec accept', async () => {
      joining.join.mockResolvedValue({ success: true, tenantId: 'tenant-1', role: 'admin', userId: 'u-1' });
      store.findTenantName.mockResolvedValue('Acme');
      const visitor = { caller: caller('carol@example.com') };
      expect(await page.accept(TOKEN, visitor)).toEqual({
        status: 200,
        view: { kind: 'joined', tenantName: 'Acme', role: 'admin', pending: false },
      });
      expect(joining.join).toHaveBeenCalledWith(visitor.caller, TOKEN);
      expect(invitations.accept).not.toHaveBeenCalled();
    });

    it('accept: a join whose membership is still on its way to the pool is 202, pending', async () => {
      joining.join.mockResolvedValue({
        success: true,
        tenantId: 'tenant-1',
        role: 'member',
        userId: 'u-1',
        pending: true,
      });
      store.findTenantName.mockResolvedValue('Acme');
      expect(await page.accept(TOKEN, { caller: caller('carol@example.com') })).toEqual({
        status: 202,
        view: { kind: 'joined', tenantName: 'Acme', role: 'member', pending: true },
      });
    });

    it.each([
      [403, 'EMAIL_MISMATCH', { kind: 'other-address', signedInAs: 'carol@example.com' }],
      [403, 'EMAIL_NOT_VERIFIED', { kind: 'not-verified' }],
      [409, 'MEMBER_OF_ANOTHER_ORGANISATION', { kind: 'member-elsewhere' }],
      [409, 'EMAIL_IN_USE', { kind: 'email-in-use' }],
      [400, 'ALREADY_USED', { kind: 'already-used' }],
    ])('accept: the join refusal %i %s is explained', async (status, error, view) => {
      joining.join.mockRejectedValue(new HttpException({ success: false, error }, status));
      expect(await page.accept(TOKEN, { caller: caller('carol@example.com') })).toEqual({ status, view });
      expect(loggedErrors).not.toHaveBeenCalled();
    });

    it('accept: without a session but with a sign-in link, nothing is accepted: 401 and the invitation with the link', async () => {
      invitations.validate.mockResolvedValue(VALID);
      expect(await page.accept(TOKEN, { signInUrl: SIGN_IN })).toMatchObject({
        status: 401,
        view: { kind: 'invitation', action: { signInUrl: SIGN_IN } },
      });
      expect(invitations.accept).not.toHaveBeenCalled();
      expect(joining.join).not.toHaveBeenCalled();
    });
  });
});

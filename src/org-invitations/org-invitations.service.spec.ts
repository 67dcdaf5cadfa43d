import { DataSource, Repository } from 'typeorm';
import { apiFailure } from '../../test/support/api-failure';
import {
  grantsStoreOn,
  invitationsStoreOn,
  memberPermissionsOn,
  memoryDataSource,
} from '../../test/support/memory-data-source';
import { TestClock } from '../../test/support/test-clock';
import { OrgCaller } from '../auth/caller';
import { InvitationEntity } from '../database/entities';
import { InvitationIssuer } from '../invitations/invitation-issuer';
import { InvitationsStore } from '../invitations/invitations.store';
import { OrgInvitationsController } from './org-invitations.controller';
import { OrgInvitationsService } from './org-invitations.service';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const TENANT = 'tenant-1';
const caller: OrgCaller = {
  id: 'owner-1',
  email: 'owner@acme.example',
  userType: 'org',
  tenantId: TENANT,
  role: 'owner',
};

describe(OrgInvitationsService.name, () => {
  // The store is real, on in-memory SQLite with the real migrations.
  let dataSource: DataSource;
  let rows: Repository<InvitationEntity>;
  let store: InvitationsStore;
  let service: OrgInvitationsService;

  const add = async (overrides: Partial<InvitationEntity> = {}): Promise<InvitationEntity> => {
    const row: InvitationEntity = {
      id: `inv-${(await rows.count()) + 1}`,
      tenantId: TENANT,
      email: 'a@example.com',
      role: 'member',
      status: 'pending',
      expiresAt: new Date(NOW.getTime() + 1_000),
      invitedBy: 'owner-1',
      createdAt: NOW,
      ...overrides,
    };
    await rows.insert(row);
    return row;
  };
  const statusOf = async (id: string) => (await rows.findOneByOrFail({ id })).status;

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    rows = dataSource.getRepository(InvitationEntity);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(async () => {
    await rows.clear();
    store = invitationsStoreOn(dataSource, new TestClock(NOW));
    service = new OrgInvitationsService(
      store,
      null as unknown as InvitationIssuer,
      new TestClock(NOW),
      grantsStoreOn(dataSource),
      memberPermissionsOn(dataSource),
    );
  });
  afterEach(() => jest.restoreAllMocks());

  describe('list', () => {
    it('expiresAt equal to now is still pending; a millisecond earlier is expired', async () => {
      await add({ id: 'on-time', email: 'a@example.com', expiresAt: NOW });
      await add({ id: 'late', email: 'b@example.com', expiresAt: new Date(NOW.getTime() - 1) });
      const listed = await service.list(caller, {});
      expect(listed.invitations.map((row) => [row.id, row.status])).toEqual([
        ['on-time', 'pending'],
        ['late', 'expired'],
      ]);
      expect((await service.list(caller, { status: 'pending' })).invitations.map((row) => row.id)).toEqual(['on-time']);
      expect((await service.list(caller, { status: ['expired'] })).invitations.map((row) => row.id)).toEqual(['late']);
    });
  });

  describe('revoke', () => {
    it('losing the update to a parallel accept is 400 "Invitation already accepted"', async () => {
      const row = await add();
      jest.spyOn(store, 'revoke').mockImplementationOnce(async ({ id }) => {
        await rows.update({ id }, { status: 'accepted' });
        return false;
      });
      expect(await apiFailure(service.revoke(caller, row.id))).toEqual({
        status: 400,
        body: { error: 'Invitation already accepted' },
      });
      expect(await statusOf(row.id)).toBe('accepted');
    });

    it('losing the update to a parallel revoke is 200: revoked once', async () => {
      const row = await add();
      jest.spyOn(store, 'revoke').mockImplementationOnce(async ({ id }) => {
        await rows.update({ id }, { status: 'revoked' });
        return false;
      });
      expect(await service.revoke(caller, row.id)).toEqual({ success: true });
      expect(await statusOf(row.id)).toBe('revoked');
    });

    it("a failed read is the route's 500", async () => {
      jest.spyOn(store, 'findById').mockRejectedValueOnce(new Error('database down'));
      expect(
        await apiFailure(service.revoke(caller, 'x'), OrgInvitationsController.prototype.revokeInvitation),
      ).toEqual({
        status: 500,
        body: { error: 'Failed to revoke invitation' },
      });
    });
  });
});

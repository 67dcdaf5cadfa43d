import { DataSource, Repository } from 'typeorm';
import { memoryDataSource } from '../../test/support/memory-data-source';
import { InvitationEntity, TenantEntity } from './entities';
import { insertAtomically } from './insert-atomically';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const tenant = (id: string): TenantEntity => ({ id, name: id, type: 'business', status: 'pending_owner', createdAt: NOW });
const invitation: InvitationEntity = {
  id: 'inv-1',
  tenantId: 't-0',
  email: 'a@example.com',
  role: 'member',
  status: 'pending',
  expiresAt: NOW,
  invitedBy: 'owner',
  createdAt: NOW,
};

describe(insertAtomically.name, () => {
  let dataSource: DataSource;
  let tenants: Repository<TenantEntity>;
  let invitations: Repository<InvitationEntity>;
  const revokeIfPending = { target: InvitationEntity, set: { status: 'revoked' }, where: 'id = :id AND status = :pending', parameters: { id: 'inv-1', pending: 'pending' } };

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    tenants = dataSource.getRepository(TenantEntity);
    invitations = dataSource.getRepository(InvitationEntity);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(async () => {
    await tenants.clear();
    await invitations.clear();
    await invitations.insert(invitation);
  });

  it('with onlyIf: updates and inserts together, and says so', async () => {
    expect(await insertAtomically(dataSource, [[TenantEntity, tenant('t-1')]], revokeIfPending)).toBe(true);
    expect((await invitations.findOneByOrFail({ id: 'inv-1' })).status).toBe('revoked');
    expect(await tenants.count()).toBe(1);
  });

  it('with onlyIf: an update that changes no row writes nothing and answers false', async () => {
    await invitations.update({ id: 'inv-1' }, { status: 'accepted' });
    expect(await insertAtomically(dataSource, [[TenantEntity, tenant('t-1')]], revokeIfPending)).toBe(false);
    expect((await invitations.findOneByOrFail({ id: 'inv-1' })).status).toBe('accepted');
    expect(await tenants.count()).toBe(0);
  });

  it('a failed insert undoes the update', async () => {
    // The insert, after the update, fails: its primary key is taken.
    await tenants.insert(tenant('t-1'));
    const failure = await insertAtomically(dataSource, [[TenantEntity, tenant('t-1')]], revokeIfPending).catch((error: Error) => error);
    expect(String((failure as Error).message)).toMatch(/UNIQUE constraint failed: tenants\.id/);
    expect((await invitations.findOneByOrFail({ id: 'inv-1' })).status).toBe('pending');
    expect(await tenants.count()).toBe(1);
  });
});

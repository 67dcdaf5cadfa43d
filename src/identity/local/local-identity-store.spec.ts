import { DataSource, Repository } from 'typeorm';
import { memoryDataSource } from '../../../test/support/memory-data-source';
import { UserEntity } from '../../database/entities';
import { InvalidPageTokenError } from '../identity-store';
import { LocalIdentityStore } from './local-identity-store';

/** The local store against a real (in-memory SQLite) database, on the real migrations. */
describe(LocalIdentityStore.name, () => {
  let dataSource: DataSource;
  let users: Repository<UserEntity>;
  let store: LocalIdentityStore;

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    users = dataSource.getRepository(UserEntity);
    store = new LocalIdentityStore(users);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => users.clear());

  const user = async (id: string, overrides: Partial<UserEntity> = {}) => {
    const row = {
      id,
      email: `${id}@example.com`,
      platformRole: null,
      userType: null,
      tenantId: null,
      role: null,
      createdAt: new Date(),
      ...overrides,
    };
    await users.insert(row);
    return row;
  };

  it('finds by e-mail case-insensitively, including rows stored in mixed case', async () => {
    await user('a', { email: 'Alice@Example.com' });
    expect((await store.findByEmail('ALICE@example.COM')).map((u) => u.id)).toEqual(['a']);
    expect(await store.findByEmail('alice@example.co')).toEqual([]);
  });

  it('finds a tenant member by e-mail only within that tenant', async () => {
    await user('m', { email: 'm@example.com', tenantId: 't1', role: 'member', userType: 'org' });
    expect(await store.findTenantMemberByEmail('t1', 'M@EXAMPLE.COM')).toMatchObject({ id: 'm', tenantId: 't1' });
    expect(await store.findTenantMemberByEmail('t2', 'm@example.com')).toBeNull();
  });

  it('answers the tenant-member look-up from an index, not a scan', async () => {
    const plan: { detail: string }[] = await dataSource.query(
      'EXPLAIN QUERY PLAN SELECT * FROM users WHERE tenant_id = ? AND email = ?',
      ['t1', 'm@example.com'],
    );
    expect(plan.map((step) => step.detail).join(' ')).toMatch(/USING INDEX (IDX_users_tenant_email|UQ_users_email)/);
  });

  it('pages through super-admins in id order with an opaque token, absent on the last page', async () => {
    for (const id of ['s3', 's1', 's2']) await user(id, { platformRole: 'super_admin' });
    await user('plain');
    const first = await store.listSuperAdmins({ limit: 2 });
    expect(first.users.map((u) => u.id)).toEqual(['s1', 's2']);
    expect(first.nextToken).toEqual(expect.any(String));
    const second = await store.listSuperAdmins({ limit: 2, token: first.nextToken });
    expect(second.users.map((u) => u.id)).toEqual(['s3']);
    expect(second.nextToken).toBeUndefined();
    const exact = await store.listSuperAdmins({ limit: 3 });
    expect(exact.nextToken).toBeUndefined();
  });

  it.each(['', 'not base64!', '%%%', 'YQ=='])('refuses the malformed page token %p', async (token) => {
    await expect(store.listSuperAdmins({ limit: 2, token })).rejects.toBeInstanceOf(InvalidPageTokenError);
  });

  it('grants, removes from a tenant (keeping the account) and deletes', async () => {
    await user('u', { tenantId: 't1', role: 'admin', userType: 'org' });
    await store.grantSuperAdmin('u');
    expect((await store.findById('u'))?.platformRole).toBe('super_admin');
    await store.removeFromTenant('u');
    expect(await store.findById('u')).toMatchObject({ tenantId: null, role: null, userType: 'org' });
    await store.deleteUser('u');
    expect(await store.findById('u')).toBeNull();
  });

});

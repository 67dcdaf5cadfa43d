import { DataSource, Repository } from 'typeorm';
import { memoryDataSource } from '../../../test/support/memory-data-source';
import { UserEntity } from '../../database/entities';
import { emailKey } from '../../common/email-comparison';
import { PreparedStatements } from '../../database/prepared-statements';
import { InvalidPageTokenError } from '../identity-store';
import { LocalIdentityStore, localUserRows } from './local-identity-store';
import { undoMigrationsThrough } from '../../../test/support/undo-migrations';

/** The local store against a real (in-memory SQLite) database, on the real migrations. */
describe(LocalIdentityStore.name, () => {
  let dataSource: DataSource;
  let users: Repository<UserEntity>;
  let store: LocalIdentityStore;

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    users = dataSource.getRepository(UserEntity);
    store = new LocalIdentityStore(users, new PreparedStatements(dataSource));
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => users.clear());

  /** A row as the service writes it (with its email_key), unless overridden. */
  const user = async (id: string, overrides: Partial<UserEntity> = {}) => {
    const email = overrides.email ?? `${id}@example.com`;
    const row = {
      id,
      email,
      emailKey: emailKey(email),
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

  it('finds by e-mail as sameEmail compares, look-alikes included, in id order', async () => {
    await user('b', { email: 'kate@example.com' });
    await user('a', { email: '\uFF4Bate@example.com' });
    await user('tagged', { email: 'kate+news@example.com' });
    expect((await store.findByEmail('\u212AATE@example.com')).map((u) => u.id)).toEqual(['a', 'b']);
    expect(await store.findByEmail('kate@example.co')).toEqual([]);
  });

  it('a row written without email_key (by hand, or by an older version) is still found through email', async () => {
    await user('a', { email: 'Alice@Example.com', emailKey: null });
    expect((await store.findByEmail('ALICE@example.COM')).map((u) => u.id)).toEqual(['a']);
    expect((await store.findTenantMemberByEmail('t1', 'alice@example.com'))?.id).toBeUndefined();
  });

  it('finds a tenant member by e-mail only within that tenant', async () => {
    await user('m', { email: 'mike@example.com', tenantId: 't1', role: 'member', userType: 'org' });
    expect(await store.findTenantMemberByEmail('t1', 'M\u0130KE@EXAMPLE.COM')).toMatchObject({
      id: 'm',
      tenantId: 't1',
    });
    expect(await store.findTenantMemberByEmail('t2', 'mike@example.com')).toBeNull();
  });

  it('answers the e-mail look-ups from indexes, not a scan', async () => {
    const plan = async (sql: string, parameters: string[]) => {
      const steps: { detail: string }[] = await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, parameters);
      return steps.map((step) => step.detail).join(' ');
    };
    expect(await plan('SELECT * FROM users WHERE tenant_id = ? AND email_key = ?', ['t1', 'k'])).toMatch(
      /USING INDEX IDX_users_tenant_email_key/,
    );
    expect(await plan('SELECT * FROM users WHERE email_key = ?', ['k'])).toMatch(/USING INDEX IDX_users_email_key/);
    expect(await plan('SELECT * FROM users WHERE tenant_id = ? AND email = ?', ['t1', 'm@example.com'])).toMatch(
      /USING INDEX (IDX_users_tenant_email|UQ_users_email)/,
    );
  });

  it('the email_key migration back-fills every existing row and keeps users.email case-insensitive', async () => {
    await undoMigrationsThrough(dataSource, 'AddUsersEmailKey');
    await dataSource.query(
      "INSERT INTO users (id, email, created_at) VALUES ('old-1', 'Kate@Example.com', " +
        "'2025-01-01'), ('old-2', '\uFF4Bate@example.com', '2025-01-01')",
    );
    await dataSource.runMigrations();
    const rows = await users.find({ order: { id: 'ASC' } });
    expect(rows.map(({ id, email, emailKey: key }) => ({ id, email, key }))).toEqual([
      { id: 'old-1', email: 'Kate@Example.com', key: emailKey('kate@example.com') },
      { id: 'old-2', email: '\uFF4Bate@example.com', key: emailKey('kate@example.com') },
    ]);
    await expect(user('dup', { email: 'KATE@example.com' })).rejects.toThrow(/UNIQUE/);
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

  it("where the stores differ: the session's claim decides verification, and may be absent; the users rows go in the callers' transactions", async () => {
    await user('u');
    expect(await store.emailVerified('u', true)).toBe(true);
    expect(await store.emailVerified('u', undefined)).toBe(false);
    expect(store.claimDeniesVerification(undefined)).toBe(false);
    expect(store.claimDeniesVerification(false)).toBe(true);
    expect(store.accountRows()).toBe(localUserRows);
    expect(store.poolMemberships()).toBeNull();
    expect(store.pingedForReadiness).toBe(false);
  });
});

import { randomUUID } from 'node:crypto';
import { DELETION_BATCH_SIZE } from '../src/admin-tenants/tenant-lifecycle.service';
import { TenantsStore } from '../src/admin-tenants/tenants.store';
import { emailKey } from '../src/common/email-comparison';
import { sqlTimestamp } from '../src/database/prepared-statements';
import { IdentityStore } from '../src/identity/identity-store';
import { sessionCookie } from './support/factories';
import { useTestApp } from './support/suites';

const MEMBERS = 5_000;
const INVITATIONS = 2_000;
const SEED_BATCH = 500;
const MB = 1024 * 1024;

/** Rows written in multi-row INSERTs of SEED_BATCH: seeding 5,000 members one by one would take most of the run. */
async function insertRows(
  t: ReturnType<typeof useTestApp>['t'],
  table: string,
  columns: string[],
  rows: unknown[][],
): Promise<void> {
  for (let start = 0; start < rows.length; start += SEED_BATCH) {
    const batch = rows.slice(start, start + SEED_BATCH);
    const values = batch.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
    await t.dataSource.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`, batch.flat());
  }
}

/**
 * A tenant of 5,000 members and 2,000 open invitations is deleted in bounded batches: each step a
 * statement of its own (never one transaction over the tenant), and the memory the request holds
 * independent of the tenant's size. The figures are printed for docs/tenant-lifecycle.md.
 */
describe(`deleting a tenant of ${MEMBERS} members`, () => {
  const { t, factory } = useTestApp();

  it('detaches them and revokes the invitations in batches of DELETION_BATCH_SIZE, in bounded memory', async () => {
    const tenant = await factory.tenant({ status: 'active' });
    const now = new Date();
    const at = sqlTimestamp(now);
    await insertRows(
      t,
      'users',
      ['id', 'email', 'email_key', 'user_type', 'tenant_id', 'role', 'created_at'],
      Array.from({ length: MEMBERS }, (_, i) => {
        const email = `member-${i}-${tenant.id.slice(0, 8)}@example.com`;
        return [
          `member-${i}-${tenant.id}`,
          email,
          emailKey(email),
          'org',
          tenant.id,
          i === 0 ? 'owner' : i < 50 ? 'admin' : 'member',
          at,
        ];
      }),
    );
    const expires = sqlTimestamp(new Date(now.getTime() + 7 * 24 * 3600 * 1000));
    await insertRows(
      t,
      'tenant_invitations',
      ['id', 'tenant_id', 'email', 'role', 'status', 'expires_at', 'invited_by', 'created_at'],
      Array.from({ length: INVITATIONS }, (_, i) => [
        randomUUID(),
        tenant.id,
        `invitee-${i}@example.com`,
        'member',
        'pending',
        expires,
        'member-0',
        at,
      ]),
    );
    const rootCookie = await sessionCookie(t, await factory.superAdmin());
    expect((await t.http.get(`/api/admin/tenants/${tenant.id}`).set('Cookie', rootCookie)).body).toMatchObject({
      members: { owner: 1, admin: 49, member: MEMBERS - 50 },
      pendingInvitations: INVITATIONS,
    });

    const detach = jest.spyOn(t.app.get(IdentityStore), 'detachTenantMembers');
    const revoke = jest.spyOn(t.app.get(TenantsStore), 'revokeOpenInvitations');
    const baseline = process.memoryUsage();
    let peakHeap = baseline.heapUsed;
    let peakRss = baseline.rss;
    const sampler = setInterval(() => {
      const { heapUsed, rss } = process.memoryUsage();
      peakHeap = Math.max(peakHeap, heapUsed);
      peakRss = Math.max(peakRss, rss);
    }, 2);
    const started = Date.now();
    const res = await t.http.delete(`/api/admin/tenants/${tenant.id}`).set('Cookie', rootCookie);
    const elapsed = Date.now() - started;
    clearInterval(sampler);

    expect([res.status, res.body]).toEqual([200, { success: true }]);
    const detached = await Promise.all(detach.mock.results.map((result) => result.value as Promise<number>));
    const revoked = await Promise.all(revoke.mock.results.map((result) => result.value as Promise<number>));
    expect(detached).toEqual([...Array(MEMBERS / DELETION_BATCH_SIZE).fill(DELETION_BATCH_SIZE), 0]);
    expect(revoked).toEqual([...Array(INVITATIONS / DELETION_BATCH_SIZE).fill(DELETION_BATCH_SIZE), 0]);
    const count = async (sql: string, parameters: unknown[]) =>
      Number((await t.dataSource.query(sql, parameters))[0].n);
    expect(await count('SELECT COUNT(*) AS n FROM users WHERE tenant_id = ?', [tenant.id])).toBe(0);
    expect(
      await count("SELECT COUNT(*) AS n FROM tenant_invitations WHERE tenant_id = ? AND status = 'revoked'", [
        tenant.id,
      ]),
    ).toBe(INVITATIONS);
    // The accounts stay.
    expect(await count('SELECT COUNT(*) AS n FROM users WHERE id LIKE ?', [`member-%-${tenant.id}`])).toBe(MEMBERS);
    expect((await t.app.get(TenantsStore).find(tenant.id))!.deletedAt).toBeInstanceOf(Date);

    const heapGrowth = (peakHeap - baseline.heapUsed) / MB;
    process.stdout.write(
      `\n[tenant deletion, ${t.config.database.type}] ${MEMBERS} members and ${INVITATIONS} invitations in ${elapsed} ms, ` +
        `${detached.length + revoked.length} batches; heap ${(baseline.heapUsed / MB).toFixed(1)} MB before, ` +
        `peak +${heapGrowth.toFixed(1)} MB; RSS peak +${((peakRss - baseline.rss) / MB).toFixed(1)} MB\n`,
    );
    // A batch holds at most DELETION_BATCH_SIZE ids: the request's memory does not follow the tenant's size.
    expect(heapGrowth).toBeLessThan(32);
  });
});

import { TENANT_LIST_BATCH } from '../src/admin-tenants/admin-tenants.service';
import { TenantsStore } from '../src/admin-tenants/tenants.store';
import { TenantEntity } from '../src/database/entities';
import { sqlTimestamp } from '../src/database/prepared-statements';
import { factories, sessionCookie } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { invalidRequest } from './support/documented-http';

const STATUSES = ['pending_owner', 'active', 'suspended', 'deleted'] as const;
/** More than two batches of the streamed list, so that a key between batches is crossed twice. */
const TENANTS = TENANT_LIST_BATCH * 2 + 500;
const PAGING_ERRORS = {
  invalidLimit: { error: 'Invalid limit. Must be an integer from 1 to 100' },
  invalidCursor: { error: 'Invalid cursor' },
};

interface Listed {
  id: string;
  name: string;
  type: string;
  status: string;
  createdAt: string;
}

/**
 * GET /api/admin/tenants on a list longer than one read: the spec answer, streamed a batch at a
 * time so that memory does not grow with the list, is the same bytes as one answer built at once;
 * `?limit=&cursor=` pages it.
 */
describe('GET /api/admin/tenants, a long list', () => {
  let t: TestApp;
  let admin: string;
  /** The tenants as the list orders them: created_at, then id (ten share each time). */
  let all: Listed[];

  const cursorOf = (key: unknown) => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
  const get = (query = '') => t.http.get(`/api/admin/tenants${query}`).set('Cookie', admin);
  const listed = (statuses: readonly string[]) => all.filter((tenant) => statuses.includes(tenant.status));
  /** Every page from the first, following nextCursor. */
  const pages = async (query: string) => {
    const seen: { tenants: Listed[]; nextCursor?: string }[] = [];
    let cursor: string | undefined;
    do {
      const res = await get(`?${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(res.body);
      cursor = res.body.nextCursor;
    } while (cursor);
    return seen;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await sessionCookie(t, await factories(t).superAdmin());
    await t.dataSource.getRepository(TenantEntity).clear();
    const start = Date.UTC(2026, 0, 1);
    all = Array.from({ length: TENANTS }, (_, i) => ({
      // Ids out of creation order, so that the order by id within one time is not the insertion order.
      id: `tenant-${String((i * 7919) % TENANTS).padStart(5, '0')}`,
      name: i % 97 === 0 ? `Zürich "${i}" 🚀` : `Tenant ${i}`,
      type: 'business',
      status: STATUSES[i % 13 === 0 ? 2 : i % 17 === 0 ? 3 : i % 3 === 0 ? 0 : 1],
      createdAt: new Date(start + Math.floor(i / 10) * 1_000 + (i % 10 === 9 ? 1 : 0)).toISOString(),
    }));
    for (let from = 0; from < all.length; from += 500) {
      const batch = all.slice(from, from + 500);
      await t.dataSource.query(
        `INSERT INTO tenants (id, name, type, status, created_at) VALUES ${batch.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        batch.flatMap((tenant) => [
          tenant.id,
          tenant.name,
          tenant.type,
          tenant.status,
          sqlTimestamp(new Date(tenant.createdAt)),
        ]),
      );
    }
    all.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  });
  afterAll(async () => {
    await t.dataSource.getRepository(TenantEntity).clear();
    await t.close();
  });

  describe('without limit or cursor (spec 4.3)', () => {
    it('the whole list, read a batch at a time, is byte for byte the one answer of the spec', async () => {
      const read = jest.spyOn(t.app.get(TenantsStore), 'list');
      const res = await get();
      const reads = read.mock.calls.length;
      read.mockRestore();

      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const expected = listed(['pending_owner', 'active', 'suspended']);
      expect(res.text).toBe(JSON.stringify({ tenants: expected }));
      expect(reads).toBe(Math.floor(expected.length / TENANT_LIST_BATCH) + 1);
    });

    it('status=: those only, several merged in the list order, across batches', async () => {
      const res = await get('?status=suspended&status=deleted&status=suspended');
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify({ tenants: listed(['suspended', 'deleted']) }));
    });
  });

  describe('with limit or cursor (paging)', () => {
    it('pages of `limit` (default 50), each with nextCursor but the last: together the whole list, in order', async () => {
      const seen = await pages('limit=100');
      expect(seen.flatMap((page) => page.tenants)).toEqual(listed(['pending_owner', 'active', 'suspended']));
      expect(seen.slice(0, -1).every((page) => page.tenants.length === 100 && page.nextCursor)).toBe(true);
      expect(Object.keys(seen[seen.length - 1])).toEqual(['tenants']);

      const first = await get('?limit=50');
      expect(first.body.tenants).toEqual(all.filter((tenant) => tenant.status !== 'deleted').slice(0, 50));
      expect((await get(`?cursor=${first.body.nextCursor}`)).body.tenants).toHaveLength(50);
    });

    it('with status=: pages of those statuses only', async () => {
      const seen = await pages('limit=100&status=active&status=deleted');
      expect(seen.flatMap((page) => page.tenants)).toEqual(listed(['active', 'deleted']));
    });

    it('a page after the last tenant is empty, without nextCursor', async () => {
      const last = all[all.length - 1];
      const res = await get(`?cursor=${cursorOf([last.createdAt, last.id])}`);
      expect([res.status, res.body]).toEqual([200, { tenants: [] }]);
    });

    it.each([['0'], ['101'], ['1.5'], ['ten']])('limit=%s is 400 {error:"Invalid limit…"}', async (limit) => {
      const res = await invalidRequest(() => get(`?limit=${limit}`));
      expect([res.status, res.body]).toEqual([400, PAGING_ERRORS.invalidLimit]);
    });

    it.each([
      ['not base64url JSON', 'not-a-cursor'],
      ['a key of another length', cursorOf(['a@example.com', 'id', 'x'])],
      ['a time that is not the list’s', cursorOf(['yesterday', 'tenant-00001'])],
    ])('a cursor that is %s is 400 {error:"Invalid cursor"}', async (_, cursor) => {
      const res = await get(`?cursor=${cursor}`);
      expect([res.status, res.body]).toEqual([400, PAGING_ERRORS.invalidCursor]);
    });
  });
});

import { DataSource } from 'typeorm';
import { grantsStoreOn, memoryDataSource } from '../../test/support/memory-data-source';
import { parseConfig } from '../config/app-config';
import {
  MemberRoleEntity,
  OrgRoleEntity,
  OrgRolePermissionEntity,
  ProductPermissionEntity,
  TenantEntity,
} from '../database/entities';
import { GrantsStore } from './grants.store';
import { MemberPermissions } from './member-permissions';
import { ProductCatalogue } from './product-catalogue';

const TENANT = 'tenant-1';
const NOW = new Date('2026-03-01T10:00:00.000Z');

describe(MemberPermissions.name, () => {
  let dataSource: DataSource;
  let grants: GrantsStore;
  let permissions: MemberPermissions;

  const role = async (key: string, granted: string[]) => {
    await dataSource.getRepository(OrgRoleEntity).insert({
      tenantId: TENANT,
      key,
      name: key,
      description: null,
      version: 0,
      createdAt: NOW,
      updatedAt: NOW,
    });
    for (const permission of granted)
      await dataSource.getRepository(OrgRolePermissionEntity).insert({ tenantId: TENANT, roleKey: key, permission });
  };
  const hold = (userId: string, roleKey: string) =>
    dataSource.getRepository(MemberRoleEntity).insert({ tenantId: TENANT, userId, roleKey, grantedAt: NOW });

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    await dataSource
      .getRepository(TenantEntity)
      .insert({ id: TENANT, name: 'Acme', type: 'business', status: 'active', createdAt: NOW });
    await dataSource
      .getRepository(ProductPermissionEntity)
      .insert({ key: 'reports:export', description: null, createdAt: NOW });
    await role('recruiter', ['invitations:create']);
    await role('analyst', ['reports:export']);
    await role('role-manager', ['roles:manage']);
    await hold('rita', 'recruiter');
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => {
    grants = grantsStoreOn(dataSource);
    permissions = new MemberPermissions(grants, new ProductCatalogue(grants), parseConfig({ ROLES_PER_MEMBER: '2' }));
  });

  describe('of', () => {
    it('a member holds members:read and what their custom roles carry; an admin the product’s catalogue too', async () => {
      const rita = await permissions.of({ id: 'rita', tenantId: TENANT, role: 'member' });
      expect([rita.roles, [...rita.held].sort()]).toEqual([['recruiter'], ['invitations:create', 'members:read']]);
      expect(rita.tenant).toEqual({ id: TENANT, name: 'Acme', status: 'active' });
      const admin = await permissions.of({ id: 'adam', tenantId: TENANT, role: 'admin' });
      expect(admin.held.has('reports:export')).toBe(true);
      expect(admin.held.has('roles:manage')).toBe(false);
    });
  });

  describe('grantChecker', () => {
    it('in order: the limit, an unknown role, then a permission the caller lacks (named)', async () => {
      const check = permissions.grantChecker(TENANT, { id: 'rita', tenantId: TENANT, role: 'member' });
      expect(await check(['recruiter', 'analyst', 'nobody'])).toEqual({
        status: 422,
        error: 'MEMBER_ROLE_LIMIT',
        details: { limit: 2 },
      });
      expect(await check(['nobody'])).toEqual({ status: 422, error: 'UNKNOWN_ROLE', details: { role: 'nobody' } });
      expect(await check(['analyst'])).toEqual({
        status: 403,
        error: 'ROLE_ESCALATION',
        details: { permission: 'reports:export' },
      });
      expect(await check(['recruiter'])).toBeNull();
      expect(await check([])).toBeNull();
    });

    it('reads the caller’s roles only when the base role does not hold what the grant needs; once per checker', async () => {
      const reads = jest.spyOn(grants, 'heldBy');
      const asAdmin = permissions.grantChecker(TENANT, { id: 'adam', tenantId: TENANT, role: 'admin' });
      expect(await asAdmin(['analyst'])).toBeNull();
      expect(reads).not.toHaveBeenCalled();
      expect(await asAdmin(['role-manager'])).toMatchObject({ error: 'ROLE_ESCALATION' });
      expect(await asAdmin(['role-manager'])).toMatchObject({ error: 'ROLE_ESCALATION' });
      expect(reads).toHaveBeenCalledTimes(1);
    });

    it('a super-admin (no caller) gives any role of the tenant', async () => {
      expect(await permissions.grantChecker(TENANT, null)(['role-manager', 'analyst'])).toBeNull();
    });
  });
});

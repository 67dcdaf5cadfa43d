import { HttpStatus, Injectable } from '@nestjs/common';
import { AuditActor, roleEvents } from '../audit/audit-event';
import { Clock } from '../common/clock';
import { GrantsStore, RoleDefinition } from '../permissions/grants.store';
import {
  baseRoleHolds,
  isServicePermission,
  SERVICE_PERMISSION_KEYS,
  SERVICE_PERMISSIONS,
  SYSTEM_ROLES,
} from '../permissions/permission-catalogue';
import { ProductCatalogue } from '../permissions/product-catalogue';
import { ROLE_ERRORS, roleRefusal } from '../permissions/role-errors';
import { MAX_PRODUCT_PERMISSIONS, SetProductPermissionsDto } from './dto/role-bodies';
import { CatalogueResponse, ProductCatalogueResponse } from './dto/role.response';
import { catalogueChange } from './role-rules';
import { RolesStore } from './roles.store';

/** The permission catalogue (docs/roles.md): the service's own, and the product's, which a super-admin declares. */
@Injectable()
export class PermissionCatalogueService {
  constructor(
    private readonly grants: GrantsStore,
    private readonly store: RolesStore,
    private readonly catalogue: ProductCatalogue,
    private readonly clock: Clock,
  ) {}

  /** GET /api/permissions: both kinds, with the system roles that hold each. */
  async list(): Promise<CatalogueResponse> {
    const product = await this.catalogue.all();
    return {
      permissions: [
        ...SERVICE_PERMISSION_KEYS.map((key) => ({
          key,
          description: SERVICE_PERMISSIONS[key].description,
          kind: 'service' as const,
          grantable: SERVICE_PERMISSIONS[key].grantable,
          heldBy: SYSTEM_ROLES.filter((role) => baseRoleHolds(role, key)),
        })),
        ...product.map(({ key, description }) => ({
          key,
          description,
          kind: 'product' as const,
          grantable: true,
          heldBy: SYSTEM_ROLES.filter((role) => role !== 'member'),
        })),
      ],
    };
  }

  /**
   * PUT /api/admin/permissions: the product's whole catalogue, in order: at most 500 (422), no key
   * of the service's (409 PERMISSION_RESERVED), then a removed key that roles carry: 409
   * PERMISSION_IN_USE, unless `force`, which takes it out of those roles (each audited). One
   * transaction; this instance sees the new catalogue at once, the others within a second.
   */
  async replace(dto: SetProductPermissionsDto, force: unknown, actor: AuditActor): Promise<ProductCatalogueResponse> {
    if (force !== undefined && force !== 'true' && force !== 'false')
      throw roleRefusal(HttpStatus.BAD_REQUEST, ROLE_ERRORS.invalidBody);
    const next = dto.permissions.map(({ key, description }) => ({ key, description: description ?? null }));
    if (next.length > MAX_PRODUCT_PERMISSIONS)
      throw roleRefusal(HttpStatus.UNPROCESSABLE_ENTITY, ROLE_ERRORS.catalogueLimit, {
        limit: MAX_PRODUCT_PERMISSIONS,
      });
    const reserved = next.find(({ key }) => isServicePermission(key));
    if (reserved) throw roleRefusal(HttpStatus.CONFLICT, ROLE_ERRORS.permissionReserved, { permission: reserved.key });
    const change = catalogueChange(await this.grants.productPermissions(), next);
    const carrying = await this.store.rolesCarrying(change.removed);
    if (carrying.length && force !== 'true') {
      const permission = carrying.map((row) => row.permission).sort()[0];
      const roles = carrying.filter((row) => row.permission === permission).length;
      throw roleRefusal(HttpStatus.CONFLICT, ROLE_ERRORS.permissionInUse, { permission, roles });
    }
    const changedRoles = await this.rolesLosing(carrying, change.removed);
    const events = [
      ...changedRoles.map(({ tenantId, role }) =>
        roleEvents.roleUpdated(
          tenantId,
          role,
          { ...role, permissions: role.permissions.filter((key) => !change.removed.includes(key)) },
          actor,
          'permission_removed',
        ),
      ),
      roleEvents.catalogueChanged(
        {
          added: change.added.map(({ key }) => key).sort(),
          removed: [...change.removed].sort(),
          described: change.described.map(({ key }) => key).sort(),
          rolesChanged: changedRoles.length,
        },
        actor,
      ),
    ];
    const rolesChanged = changedRoles.map(({ tenantId, role }) => ({ tenantId, key: role.key }));
    await this.store.replaceCatalogue(change, rolesChanged, events, this.clock.now());
    this.catalogue.forget();
    return {
      success: true,
      permissions: [...next].sort((a, b) => (a.key < b.key ? -1 : 1)),
      rolesChanged: rolesChanged.length,
    };
  }

  /** The roles that carry a removed permission, as they are: one read per organisation among them, in turn. */
  private async rolesLosing(
    carrying: { tenantId: string; key: string }[],
    removed: string[],
  ): Promise<{ tenantId: string; role: RoleDefinition }[]> {
    const found: { tenantId: string; role: RoleDefinition }[] = [];
    for (const tenantId of new Set(carrying.map((row) => row.tenantId))) {
      for (const role of await this.grants.roles(tenantId))
        if (role.permissions.some((key) => removed.includes(key))) found.push({ tenantId, role });
    }
    return found;
  }
}

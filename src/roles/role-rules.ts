import { ProductPermission } from '../permissions/grants.store';
import { isGrantable, isServicePermission } from '../permissions/permission-catalogue';
import { ROLE_ERRORS } from '../permissions/role-errors';

/*
 * The rules of custom roles that need no store (docs/roles.md), called by the roles' services.
 */

/** The role's fields that an edit sets. */
export interface RoleFields {
  key: string;
  name: string;
  description: string | null;
  permissions: string[];
}

/** A change of the product's catalogue: what a super-admin's new list adds, removes and describes anew. */
export interface CatalogueChange {
  added: ProductPermission[];
  removed: string[];
  described: ProductPermission[];
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** A role's fields after an edit (or its creation, from null): name trimmed, permissions distinct and sorted. */
export function roleAfterEdit(
  before: RoleFields | null,
  edit: { key?: string; name?: string; description?: string | null; permissions?: string[] },
): RoleFields {
  return {
    key: before?.key ?? edit.key!,
    name: edit.name?.trim() ?? before!.name,
    description: edit.description !== undefined ? edit.description : (before?.description ?? null),
    permissions: edit.permissions ? sorted(edit.permissions) : before!.permissions,
  };
}

/** Whether an edit changes anything. */
export const changedFields = (before: RoleFields, after: RoleFields): boolean =>
  before.name !== after.name ||
  before.description !== after.description ||
  before.permissions.join('\n') !== after.permissions.join('\n');

/** The first permission a custom role may not carry: unknown to the catalogue, or only an owner's. */
export function catalogueRefusal(
  permissions: string[],
  product: ReadonlySet<string>,
): { error: typeof ROLE_ERRORS.unknownPermission | typeof ROLE_ERRORS.notGrantable; permission: string } | null {
  for (const permission of permissions) {
    if (!isServicePermission(permission) && !product.has(permission))
      return { error: ROLE_ERRORS.unknownPermission, permission };
    if (!isGrantable(permission)) return { error: ROLE_ERRORS.notGrantable, permission };
  }
  return null;
}

/** A holder's roles once `removed` is deleted and its holders get `target` instead. */
export const rolesAfterReassignment = (before: string[], removed: string, target: string): string[] =>
  sorted([...before.filter((key) => key !== removed), target]);

/** The roles given or taken away by replacing `before` with `after`: each must be the caller's to give. */
export const touchedRoles = (before: string[], after: string[]): string[] =>
  sorted([...before.filter((key) => !after.includes(key)), ...after.filter((key) => !before.includes(key))]);

/** What a new product catalogue changes against the current one. */
export function catalogueChange(current: ProductPermission[], next: ProductPermission[]): CatalogueChange {
  const known = new Map(current.map((permission) => [permission.key, permission]));
  const wanted = new Set(next.map((permission) => permission.key));
  return {
    added: next.filter((permission) => !known.has(permission.key)),
    removed: current.filter((permission) => !wanted.has(permission.key)).map((permission) => permission.key),
    described: next.filter(
      (permission) => known.has(permission.key) && known.get(permission.key)!.description !== permission.description,
    ),
  };
}

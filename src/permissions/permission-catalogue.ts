/**
 * The permission catalogue (docs/roles.md): what a member may do, as `resource:action` strings.
 * The service's own permissions are fixed here, one per thing a member can do through its org
 * routes; the product's (the portal's features) are declared by a super-admin and live in the
 * database. The three base roles of the spec are fixed system roles over this catalogue.
 */

/** `resource:action`, lower case, each side `[a-z][a-z0-9_]*`; 100 characters at most. */
export const PERMISSION_PATTERN = /^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$/;
export const PERMISSION_MAX_LENGTH = 100;
export const isPermissionKey = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= PERMISSION_MAX_LENGTH && PERMISSION_PATTERN.test(value);

/** A custom role's key: 2 to 40 characters. */
export const ROLE_KEY_PATTERN = /^[a-z][a-z0-9_-]{1,39}$/;
export const isRoleKey = (value: unknown): value is string => typeof value === 'string' && ROLE_KEY_PATTERN.test(value);

/** The spec's tenant roles: fixed system roles, never a custom role's key. */
export const SYSTEM_ROLES = ['owner', 'admin', 'member'] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];
export const isSystemRole = (key: string): key is SystemRole => (SYSTEM_ROLES as readonly string[]).includes(key);

/**
 * The service's permissions, in the order the API lists them. `admin`: whether the admin role holds
 * it (the owner holds every one); `grantable`: whether a custom role may carry it (never for what
 * only an owner may do by the spec and its features: the SCIM and single sign-on set-ups).
 */
export const SERVICE_PERMISSIONS = {
  'members:read': {
    description: 'List the organisation’s members and people, read its roles, check permissions',
    admin: true,
    grantable: true,
  },
  'members:remove': { description: 'Remove a member from the organisation', admin: true, grantable: true },
  'members:set_role': {
    description: 'Change a member’s base role and custom roles (never an owner’s, unless an owner)',
    admin: true,
    grantable: true,
  },
  'invitations:create': {
    description: 'Invite people (one, in bulk), send an invitation again, read the invitation quota',
    admin: true,
    grantable: true,
  },
  'invitations:read': { description: 'List the organisation’s invitations', admin: true, grantable: true },
  'invitations:revoke': { description: 'Revoke an invitation', admin: true, grantable: true },
  'domains:manage': {
    description: 'Claim, verify, configure and remove the organisation’s e-mail domains',
    admin: true,
    grantable: true,
  },
  'join_requests:decide': { description: 'List, approve and reject requests to join', admin: true, grantable: true },
  'audit:read': { description: 'Read the organisation’s audit trail', admin: true, grantable: true },
  'roles:manage': {
    description: 'Create, change and delete the organisation’s custom roles (owners; admins only through a role)',
    admin: false,
    grantable: true,
  },
  'sessions:revoke': {
    description: 'Read and end a member’s sessions (never an owner’s, unless an owner)',
    admin: true,
    grantable: true,
  },
  'scim:manage': {
    description: 'The SCIM set-up: tokens and the group-to-role mapping (owners only)',
    admin: false,
    grantable: false,
  },
  'sso:manage': {
    description: 'Single sign-on: its connections, and whether the organisation requires it (owners only)',
    admin: false,
    grantable: false,
  },
  'setup_links:manage': {
    description:
      'Make, list and revoke the links that let an IT admin set up domains, single sign-on and SCIM (owners only)',
    admin: false,
    grantable: false,
  },
} as const satisfies Record<string, { description: string; admin: boolean; grantable: boolean }>;

export type ServicePermission = keyof typeof SERVICE_PERMISSIONS;
export const SERVICE_PERMISSION_KEYS = Object.keys(SERVICE_PERMISSIONS) as ServicePermission[];
export const isServicePermission = (key: string): key is ServicePermission => Object.hasOwn(SERVICE_PERMISSIONS, key);

/** The OpenAPI extension of an org route that names the permission it needs. */
export const REQUIRED_PERMISSION_EXTENSION = 'x-required-permission';

/** What a member of the base role `member` holds: every user of the organisation. */
export const MEMBER_PERMISSIONS: readonly ServicePermission[] = ['members:read'];

/**
 * Whether the base role holds a service permission. Any role but owner and admin is a member's:
 * the spec's routes open to every user of an organisation ask nothing more of its stored role.
 */
export function baseRoleHolds(role: string | null, permission: ServicePermission): boolean {
  if (role === 'owner') return true;
  if (role === 'admin') return SERVICE_PERMISSIONS[permission].admin;
  return MEMBER_PERMISSIONS.includes(permission);
}

/** Whether a custom role may carry the permission: the product's always, the service's unless owner-only. */
export const isGrantable = (key: string): boolean => !isServicePermission(key) || SERVICE_PERMISSIONS[key].grantable;

/**
 * Every permission the base role holds, given the product's catalogue: the owner all, the admin the
 * product's and the service's but the owner-only ones, a member `members:read`.
 */
export function basePermissions(role: string | null, productKeys: Iterable<string>): string[] {
  if (role !== 'owner' && role !== 'admin') return [...MEMBER_PERMISSIONS];
  return [...SERVICE_PERMISSION_KEYS.filter((key) => baseRoleHolds(role, key)), ...productKeys];
}

/**
 * The first of `needed` (in code-point order) that `held` lacks, or null: a caller may grant, take
 * away or define only what it holds itself.
 */
export function firstMissing(needed: Iterable<string>, held: ReadonlySet<string>): string | null {
  return [...new Set(needed)].sort().find((key) => !held.has(key)) ?? null;
}

import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { TENANT_ROLES } from '../../identity/identity-store';
import { RoleDefinition } from '../../permissions/grants.store';
import { basePermissions, SYSTEM_ROLES, SystemRole } from '../../permissions/permission-catalogue';
import { MemberResponse } from '../../org-members/dto/member.response';

/** A role of the organisation: one of the spec's three (system) or one of its own. */
export class RoleResponse {
  @ApiProperty({ example: 'recruiter' })
  key: string;

  @ApiProperty({ example: 'Recruiter' })
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: [String], description: 'In code-point order' })
  permissions: string[];

  @ApiProperty({ description: 'owner, admin and member: fixed, never changed or deleted' })
  system: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'Custom roles only' })
  createdAt?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Custom roles only' })
  updatedAt?: string;
}

export class ListRolesResponse {
  @ApiProperty({ type: [RoleResponse], description: 'The three system roles first, then the organisation’s by key' })
  roles: RoleResponse[];
}

export class OneRoleResponse {
  @ApiProperty()
  role: RoleResponse;
}

export class ChangedRoleResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  role: RoleResponse;
}

export class DeletedRoleResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiPropertyOptional({ description: 'With `reassignTo`: how many members held the role and hold that one instead' })
  reassigned?: number;
}

/** A member with their custom roles, always listed here. */
export class MemberWithRolesResponse extends OmitType(MemberResponse, ['roles'] as const) {
  @ApiProperty({ type: [String], description: 'The custom roles the member holds, by key' })
  roles: string[];
}

export class MemberRolesResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  member: MemberWithRolesResponse;
}

class OrganisationRef {
  @ApiProperty()
  id: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;
}

export class MyPermissionsResponse {
  @ApiProperty({ type: OrganisationRef, nullable: true, description: 'null outside any organisation' })
  organisation: OrganisationRef | null;

  @ApiProperty({ enum: TENANT_ROLES, nullable: true, type: String, description: 'The stored base role' })
  role: string | null;

  @ApiProperty({ type: [String], description: 'The custom roles held, by key' })
  roles: string[];

  @ApiProperty({
    type: [String],
    description: 'Every permission held now, in code-point order: none while the organisation is suspended',
  })
  permissions: string[];
}

export class PermissionCheckResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    example: { 'reports:export': true, 'members:remove': false },
    description: 'Each permission asked: whether the member holds it now; false for one that names no permission',
  })
  results: Record<string, boolean>;
}

export class CatalogueEntryResponse {
  @ApiProperty({ example: 'invitations:create' })
  key: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ enum: ['service', 'product'], description: 'The service’s own, or declared for the portal' })
  kind: 'service' | 'product';

  @ApiProperty({ description: 'Whether a custom role may carry it' })
  grantable: boolean;

  @ApiProperty({ enum: SYSTEM_ROLES, isArray: true, description: 'The system roles that hold it' })
  heldBy: SystemRole[];
}

export class CatalogueResponse {
  @ApiProperty({
    type: [CatalogueEntryResponse],
    description: 'The service’s, in their order, then the product’s by key',
  })
  permissions: CatalogueEntryResponse[];
}

class ProductPermissionResponse {
  @ApiProperty()
  key: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;
}

export class ProductCatalogueResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty({ type: [ProductPermissionResponse], description: 'The product’s catalogue now, by key' })
  permissions: ProductPermissionResponse[];

  @ApiProperty({ description: 'How many roles lost a removed permission (`force=true`)' })
  rolesChanged: number;
}

const SYSTEM_ROLE_TEXT: Record<SystemRole, { name: string; description: string }> = {
  owner: { name: 'Owner', description: 'Every permission, the product’s included' },
  admin: {
    name: 'Admin',
    description: 'Every permission but the owners’ own (roles:manage, scim:manage), the product’s included',
  },
  member: { name: 'Member', description: 'Reads the organisation’s members and roles' },
};

/** The three system roles, with their permissions over the catalogue now. */
export const toSystemRoleResponses = (productKeys: string[]): RoleResponse[] =>
  SYSTEM_ROLES.map((key) => ({
    key,
    ...SYSTEM_ROLE_TEXT[key],
    permissions: basePermissions(key, productKeys).sort(),
    system: true,
  }));

export const toRoleResponse = (role: RoleDefinition): RoleResponse => ({
  key: role.key,
  name: role.name,
  description: role.description,
  permissions: role.permissions,
  system: false,
  createdAt: role.createdAt.toISOString(),
  updatedAt: role.updatedAt.toISOString(),
});

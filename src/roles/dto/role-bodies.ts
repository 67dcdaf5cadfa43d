import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { SOMETHING_VISIBLE } from '../../common/validate-body';
import { NO_CONTROL_CHARACTERS } from '../../invitations/invitation';
import { PERMISSION_MAX_LENGTH, PERMISSION_PATTERN, ROLE_KEY_PATTERN } from '../../permissions/permission-catalogue';
import { ROLE_ERRORS } from '../../permissions/role-errors';

/** At most this many permissions in one role; the catalogue's size bounds it in practice. */
export const MAX_ROLE_PERMISSIONS = 200;
/** At most this many permissions asked of one check (POST /api/org/permissions/check). */
export const MAX_CHECKED_PERMISSIONS = 100;
/** At most this many product permissions (PUT /api/admin/permissions, 422 PERMISSION_LIMIT beyond). */
export const MAX_PRODUCT_PERMISSIONS = 500;
export const ROLE_NAME_MAX_LENGTH = 100;
export const DESCRIPTION_MAX_LENGTH = 500;

/*
 * The bodies of the role routes (docs/roles.md). Rules on a property run bottom-up (validateBody);
 * each message is the refusal's code (RoleBodyPipe).
 */

export class CreateRoleDto {
  @ApiProperty({ pattern: ROLE_KEY_PATTERN.source, example: 'recruiter', description: 'Never owner, admin or member' })
  @Matches(ROLE_KEY_PATTERN, { message: ROLE_ERRORS.invalidKey })
  @IsString({ message: ROLE_ERRORS.invalidKey })
  key: string;

  @ApiProperty({ minLength: 1, maxLength: ROLE_NAME_MAX_LENGTH, example: 'Recruiter' })
  @Matches(NO_CONTROL_CHARACTERS, { message: ROLE_ERRORS.invalidName })
  @Matches(SOMETHING_VISIBLE, { message: ROLE_ERRORS.invalidName })
  @MaxLength(ROLE_NAME_MAX_LENGTH, { message: ROLE_ERRORS.invalidName })
  @IsString({ message: ROLE_ERRORS.invalidName })
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX_LENGTH })
  @MaxLength(DESCRIPTION_MAX_LENGTH, { message: ROLE_ERRORS.invalidDescription })
  @IsString({ message: ROLE_ERRORS.invalidDescription })
  @IsOptional()
  description?: string | null;

  @ApiProperty({
    type: [String],
    maxItems: MAX_ROLE_PERMISSIONS,
    example: ['invitations:create', 'invitations:read'],
    description: 'Permissions of the catalogue (GET /api/permissions) that a custom role may carry, distinct',
  })
  @MaxLength(PERMISSION_MAX_LENGTH, { each: true, message: ROLE_ERRORS.invalidPermissions })
  @IsString({ each: true, message: ROLE_ERRORS.invalidPermissions })
  @ArrayUnique({ message: ROLE_ERRORS.invalidPermissions })
  @ArrayMaxSize(MAX_ROLE_PERMISSIONS, { message: ROLE_ERRORS.invalidPermissions })
  @IsArray({ message: ROLE_ERRORS.invalidPermissions })
  permissions: string[];
}

/** PATCH: the fields given change; at least one. `permissions` replaces the role's set. */
export class UpdateRoleDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: ROLE_NAME_MAX_LENGTH })
  @Matches(NO_CONTROL_CHARACTERS, { message: ROLE_ERRORS.invalidName })
  @Matches(SOMETHING_VISIBLE, { message: ROLE_ERRORS.invalidName })
  @MaxLength(ROLE_NAME_MAX_LENGTH, { message: ROLE_ERRORS.invalidName })
  @IsString({ message: ROLE_ERRORS.invalidName })
  @IsOptional()
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX_LENGTH })
  @MaxLength(DESCRIPTION_MAX_LENGTH, { message: ROLE_ERRORS.invalidDescription })
  @IsString({ message: ROLE_ERRORS.invalidDescription })
  @IsOptional()
  description?: string | null;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_ROLE_PERMISSIONS })
  @MaxLength(PERMISSION_MAX_LENGTH, { each: true, message: ROLE_ERRORS.invalidPermissions })
  @IsString({ each: true, message: ROLE_ERRORS.invalidPermissions })
  @ArrayUnique({ message: ROLE_ERRORS.invalidPermissions })
  @ArrayMaxSize(MAX_ROLE_PERMISSIONS, { message: ROLE_ERRORS.invalidPermissions })
  @IsArray({ message: ROLE_ERRORS.invalidPermissions })
  @IsOptional()
  permissions?: string[];
}

/** PUT /api/org/members/{id}/roles: the member's whole set of custom roles. */
export class SetMemberRolesDto {
  @ApiProperty({ type: [String], example: ['recruiter'], description: 'Keys of the organisation’s custom roles' })
  @Matches(ROLE_KEY_PATTERN, { each: true, message: ROLE_ERRORS.invalidRoles })
  @IsString({ each: true, message: ROLE_ERRORS.invalidRoles })
  @ArrayUnique({ message: ROLE_ERRORS.invalidRoles })
  @IsArray({ message: ROLE_ERRORS.invalidRoles })
  roles: string[];
}

/** POST /api/org/permissions/check. */
export class CheckPermissionsDto {
  @ApiPropertyOptional({ description: 'Whose permissions: the caller when absent' })
  @MaxLength(128, { message: ROLE_ERRORS.invalidBody })
  @IsNotEmpty({ message: ROLE_ERRORS.invalidBody })
  @IsString({ message: ROLE_ERRORS.invalidBody })
  @IsOptional()
  userId?: string;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_CHECKED_PERMISSIONS,
    example: ['reports:export', 'invitations:create'],
    description: 'Any strings: one that names no permission is answered false',
  })
  @MaxLength(PERMISSION_MAX_LENGTH, { each: true, message: ROLE_ERRORS.invalidPermissions })
  @IsString({ each: true, message: ROLE_ERRORS.invalidPermissions })
  @ArrayMaxSize(MAX_CHECKED_PERMISSIONS, { message: ROLE_ERRORS.invalidPermissions })
  @ArrayMinSize(1, { message: ROLE_ERRORS.invalidPermissions })
  @IsArray({ message: ROLE_ERRORS.invalidPermissions })
  permissions: string[];
}

/** One permission of the product's catalogue, as a super-admin declares it. */
export class ProductPermissionDto {
  @ApiProperty({ example: 'reports:export', description: '`resource:action`, lower case; not one of the service’s' })
  @MaxLength(PERMISSION_MAX_LENGTH, { message: ROLE_ERRORS.invalidPermissions })
  @Matches(PERMISSION_PATTERN, { message: ROLE_ERRORS.invalidPermissions })
  @IsString({ message: ROLE_ERRORS.invalidPermissions })
  key: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX_LENGTH })
  @MaxLength(DESCRIPTION_MAX_LENGTH, { message: ROLE_ERRORS.invalidDescription })
  @IsString({ message: ROLE_ERRORS.invalidDescription })
  @IsOptional()
  description?: string | null;
}

/** PUT /api/admin/permissions: the product's whole catalogue. */
export class SetProductPermissionsDto {
  @ApiProperty({ type: [ProductPermissionDto], description: 'Distinct keys; at most 500' })
  @ValidateNested({ each: true, message: ROLE_ERRORS.invalidPermissions })
  @Type(() => ProductPermissionDto)
  @ArrayUnique((permission: ProductPermissionDto) => permission?.key, { message: ROLE_ERRORS.invalidPermissions })
  @IsArray({ message: ROLE_ERRORS.invalidPermissions })
  permissions: ProductPermissionDto[];
}

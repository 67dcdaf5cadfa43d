import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IdentityUser, SUPER_ADMIN_ROLE } from '../../identity/identity-store';
import { ADMIN_USERS_MESSAGES } from '../admin-users.messages';

/** Spec section 2, User: the fields the service uses. */
export class UserResponse {
  @ApiProperty({ description: 'The identity-store username' })
  id: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ type: String, nullable: true, example: SUPER_ADMIN_ROLE })
  platformRole: string | null;

  @ApiProperty({ type: String, nullable: true })
  tenantId: string | null;

  // OpenAPI 3.0: a nullable enum lists null among its values, or null is not valid.
  @ApiProperty({ type: String, nullable: true, enum: ['owner', 'admin', 'member', null] })
  role: string | null;
}

/** Spec 4.5. */
export class SuperAdminPageResponse {
  @ApiProperty({ type: [UserResponse] })
  users: UserResponse[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'The number of users in this page' })
  total: number;

  @ApiPropertyOptional({ description: 'Pass as `token` for the next page; absent on the last page' })
  nextToken?: string;
}

/** Spec 4.6 rule 5. */
export class GrantedSuperAdminResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty({ example: ADMIN_USERS_MESSAGES.granted })
  message: string;

  @ApiProperty()
  user: UserResponse;
}

/** Spec 4.7. */
export class UserEnvelopeResponse {
  @ApiProperty()
  user: UserResponse;
}

/** Spec 4.8. */
export class DeletedUserResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty({ example: ADMIN_USERS_MESSAGES.deleted })
  message: string;
}

export const toUserResponse = (user: IdentityUser): UserResponse => ({
  id: user.id,
  email: user.email,
  platformRole: user.platformRole,
  tenantId: user.tenantId,
  role: user.role,
});

import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TENANT_ROLES } from '../../identity/identity-store';
import { MEMBER_ERRORS } from '../org-members.messages';

/** The body of PATCH /api/org/members/{id}. */
export class ChangeRoleDto {
  @ApiProperty({ enum: TENANT_ROLES })
  @IsIn(TENANT_ROLES, { message: MEMBER_ERRORS.invalidRole })
  role: string;
}

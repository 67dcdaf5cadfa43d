import { ApiProperty, OmitType } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TENANT_ROLES } from '../../identity/identity-store';
import { InviteDto } from '../../invitations/dto/invite.dto';
import { TENANT_INVITATION_ERRORS } from '../tenant-invitations.messages';

/** POST /api/admin/tenants/{id}/invitations: the e-mail as spec 4.9 checks it, and any tenant role, owner included. */
export class TenantInvitationDto extends OmitType(InviteDto, ['role'] as const) {
  @ApiProperty({ enum: TENANT_ROLES })
  @IsIn(TENANT_ROLES, { message: TENANT_INVITATION_ERRORS.invalidRole })
  role: string;
}

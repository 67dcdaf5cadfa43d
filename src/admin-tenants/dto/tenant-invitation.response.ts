import { ApiProperty } from '@nestjs/swagger';
import { TENANT_ROLES } from '../../identity/identity-store';
import { CreatedInvitationResponse } from '../../invitations/dto/created-invitation.response';

/** The invitation as spec 4.9 rule 11 shows it, with the owner role too. */
export class TenantInvitationResponse extends CreatedInvitationResponse {
  @ApiProperty({ enum: TENANT_ROLES })
  declare role: string;
}

export class CreatedTenantInvitationResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  invitation: TenantInvitationResponse;
}

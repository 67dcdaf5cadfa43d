import { ApiProperty } from '@nestjs/swagger';
import { InvitationEntity } from '../../database/entities';
import { STORED_INVITATION_ROLE_NOTE, STORED_INVITATION_ROLES } from '../../database/entities/invitation.entity';
import { DEFAULT_TENANT_NAME, tenantDisplayName } from '../invitation';

/** Spec 4.1 rule 5. */
export class ValidInvitationResponse {
  @ApiProperty({ enum: [true] })
  valid: true;

  @ApiProperty({ description: 'Lower-cased' })
  email: string;

  @ApiProperty()
  tenantId: string;

  @ApiProperty({ description: `The tenant's name, or "${DEFAULT_TENANT_NAME}" when the tenant or its name is absent` })
  tenantName: string;

  @ApiProperty({ enum: STORED_INVITATION_ROLES, description: STORED_INVITATION_ROLE_NOTE })
  role: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}

/** Spec 4.2 rule 5. */
export class AcceptedInvitationResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  tenantId: string;

  @ApiProperty({ enum: STORED_INVITATION_ROLES, description: STORED_INVITATION_ROLE_NOTE })
  role: string;
}

export const toValidInvitationResponse = (
  invitation: InvitationEntity,
  tenantName: string | null,
): ValidInvitationResponse => ({
  valid: true,
  email: invitation.email,
  tenantId: invitation.tenantId,
  tenantName: tenantDisplayName(tenantName),
  role: invitation.role,
  expiresAt: invitation.expiresAt.toISOString(),
});

export const toAcceptedInvitationResponse = (invitation: InvitationEntity): AcceptedInvitationResponse => ({
  success: true,
  tenantId: invitation.tenantId,
  role: invitation.role,
});

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { InvitationEntity } from '../../database/entities';
import {
  INVITATION_ROLES,
  STORED_INVITATION_ROLE_NOTE,
  STORED_INVITATION_ROLES,
} from '../../database/entities/invitation.entity';

/** Spec 4.9 rule 11: the invitation as the inviter sees it. */
export class CreatedInvitationResponse {
  @ApiProperty({ format: 'uuid', description: 'Also the invitation token' })
  id: string;

  @ApiProperty({ description: 'As submitted, not lower-cased' })
  email: string;

  @ApiProperty({ enum: INVITATION_ROLES })
  role: string;

  @ApiProperty({ enum: ['pending'] })
  status: string;

  @ApiProperty({ format: 'date-time', description: '7 days after creation' })
  expiresAt: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'The custom roles the invitation carries (docs/roles.md); absent when none',
  })
  roles?: string[];
}

/** Spec 4.9 rule 11. */
export class InviteMemberResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  invitation: CreatedInvitationResponse;
}

/** A resent invitation: as an invitation is created, of any role an invitation carries (a first owner's too). */
export class ResentInvitation extends CreatedInvitationResponse {
  @ApiProperty({ enum: STORED_INVITATION_ROLES, description: STORED_INVITATION_ROLE_NOTE })
  override role: string;
}

/** The answer of a resend. */
export class ResendInvitationResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  invitation: ResentInvitation;
}

export const toCreatedInvitationResponse = (
  invitation: InvitationEntity,
  submittedEmail: string,
  roles: string[] = [],
): CreatedInvitationResponse => ({
  id: invitation.id,
  email: submittedEmail,
  role: invitation.role,
  status: invitation.status,
  expiresAt: invitation.expiresAt.toISOString(),
  ...(roles.length > 0 && { roles }),
});

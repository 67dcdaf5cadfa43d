import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { InvitationEntity } from '../../database/entities';
import {
  INVITATION_STATUSES,
  STORED_INVITATION_ROLE_NOTE,
  STORED_INVITATION_ROLES,
  InvitationStatus,
} from '../../database/entities/invitation.entity';
import { effectiveStatus } from '../../invitations/invitation';

/** An invitation as its organisation's owners and admins see it. */
export class OrgInvitationResponse {
  @ApiProperty({ format: 'uuid', description: 'Also the invitation token' })
  id: string;

  @ApiProperty({ description: 'Lower-cased' })
  email: string;

  @ApiProperty({ enum: STORED_INVITATION_ROLES, description: STORED_INVITATION_ROLE_NOTE })
  role: string;

  @ApiProperty({
    enum: INVITATION_STATUSES,
    description: 'The effective status: a pending invitation past expiresAt is expired',
  })
  status: InvitationStatus;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty({ description: 'User id of the inviter' })
  invitedBy: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'The custom roles the invitation carries (docs/roles.md); absent when none',
  })
  roles?: string[];
}

export class ListInvitationsResponse {
  @ApiProperty({ type: [OrgInvitationResponse], description: 'Ordered by e-mail, then id' })
  invitations: OrgInvitationResponse[];

  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page; absent on the last page' })
  nextCursor?: string;
}

export class RevokeInvitationResponse {
  @ApiProperty({ enum: [true] })
  success: true;
}

export const toOrgInvitationResponse = (
  invitation: InvitationEntity,
  now: Date,
  roles: string[] = [],
): OrgInvitationResponse => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  status: effectiveStatus(invitation, now),
  expiresAt: invitation.expiresAt.toISOString(),
  invitedBy: invitation.invitedBy,
  createdAt: invitation.createdAt.toISOString(),
  ...(roles.length > 0 && { roles }),
});

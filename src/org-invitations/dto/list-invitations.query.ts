import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/paging';
import { INVITATION_STATUSES, InvitationStatus } from '../../database/entities/invitation.entity';
import { ORG_INVITATION_ERRORS } from '../org-invitations.messages';

/** GET /api/org/invitations: the paging, and `status` (repeatable) on the effective status. */
export class ListInvitationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: INVITATION_STATUSES,
    isArray: true,
    description:
      'Repeat to ask for several; absent: every status. The effective status: a pending invitation past expiresAt is expired.',
  })
  @IsIn(INVITATION_STATUSES, { each: true, message: ORG_INVITATION_ERRORS.invalidStatus })
  @IsOptional()
  status?: InvitationStatus | InvitationStatus[];
}

import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiTags } from '@nestjs/swagger';
import { INVITATION_ROLES } from '../database/entities/invitation.entity';
import { INVALID_EMAIL, INVALID_ROLE } from '../org-members/dto/invite.dto';
import { RATE_LIMITED } from '../rate-limit/rate-limit.module';
import { ApiErrorResponse, ApiSession, UNAUTHORIZED_BODY } from './api-docs';

/**
 * The API document's part for the org-members controller (spec 4.9 and 4.10): its handlers
 * apply `@ApiInviteMember()` and `@ApiRemoveMember()`, and the class `@ApiOrgMembers()`.
 */
class InviteMemberBody {
  @ApiProperty({ example: 'new.member@example.com' })
  email: string;

  @ApiProperty({ enum: INVITATION_ROLES })
  role: string;
}

class CreatedInvitation {
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
}

class InviteMemberResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  invitation: CreatedInvitation;
}

class RemoveMemberResponse {
  @ApiProperty({ enum: [true] })
  success: true;
}

export const ApiOrgMembers = () =>
  applyDecorators(
    ApiTags('Organisation members'),
    ApiSession(),
    ApiErrorResponse(401, 'No session', [UNAUTHORIZED_BODY]),
  );

export const ApiInviteMember = () =>
  applyDecorators(
    ApiOperation({ summary: 'Invite an e-mail address to the caller’s organisation (spec 4.9)' }),
    ApiBody({ type: InviteMemberBody }),
    ApiOkResponse({ type: InviteMemberResponse }),
    ApiErrorResponse(400, 'Invalid body, or already a member', [
      { error: 'Email is required' },
      { error: INVALID_EMAIL },
      { error: INVALID_ROLE },
      { error: 'User is already a member of this organisation' },
    ]),
    ApiErrorResponse(403, 'Not an owner or admin of an organisation', [
      { error: 'Only organisation users can invite' },
      { error: 'Only owner or admin can invite users' },
    ]),
    ApiErrorResponse(429, 'Over the per-user invitation limit (10 per hour by default); see Retry-After', [
      { error: RATE_LIMITED },
    ]),
    ApiErrorResponse(500, 'Creating the invitation failed', [{ error: 'Failed to create invitation' }]),
  );

export const ApiRemoveMember = () =>
  applyDecorators(
    ApiOperation({ summary: 'Remove a member from the caller’s organisation (spec 4.10)' }),
    ApiParam({ name: 'id', description: 'User id of the member to remove' }),
    ApiOkResponse({ type: RemoveMemberResponse }),
    ApiErrorResponse(400, 'The caller named themselves', [{ error: 'Cannot remove yourself' }]),
    ApiErrorResponse(403, 'Not allowed to remove this user', [
      { error: 'Only organisation users can access this' },
      { error: 'Only owner or admin can remove users' },
      { error: 'User is not in your organisation' },
      { error: 'Admins cannot remove owners' },
    ]),
    ApiErrorResponse(404, 'No such user', [{ error: 'User not found' }]),
    ApiErrorResponse(500, 'Removing failed', [{ error: 'Failed to remove user' }]),
  );

import { Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../api-docs/api-docs';
import { InvitationAcceptanceErrorBody, InvitationValidationErrorBody } from './dto/invitation-error';
import { AcceptedInvitationResponse, ValidInvitationResponse } from './dto/invitation.response';
import { InvitationsService } from './invitations.service';

const TOKEN = { name: 'token', description: 'The invitation token: the invitation id (a UUID)' };
const invalidGet = (error: string) => ({ valid: false, error });
const invalidPost = (error: string) => ({ success: false, error });

/**
 * Spec 4.1 and 4.2: public, no session. path-to-regexp v8 has no optional parameters, so the
 * empty token (`/api/invitations` and `/api/invitations/`) has handlers of its own: rule 1.
 */
@ApiTags('Invitations (public)')
@Controller('api/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  @ApiOperation({ summary: 'Validate without a token: always 400 INVALID (spec 4.1 rule 1)' })
  @ApiErrorResponse(400, 'No token', [invalidGet('INVALID')], InvitationValidationErrorBody)
  validateInvitationWithoutToken() {
    return this.invitations.validate('');
  }

  @Get(':token')
  @ApiOperation({ summary: 'Validate an invitation; a pending one past expiresAt is stored expired (spec 4.1)' })
  @ApiParam(TOKEN)
  @ApiOkResponse({ type: ValidInvitationResponse })
  @ApiErrorResponse(
    400,
    'Empty token, invitation already accepted, or expired',
    [invalidGet('INVALID'), invalidGet('ALREADY_USED'), invalidGet('EXPIRED')],
    InvitationValidationErrorBody,
  )
  @ApiErrorResponse(404, 'No such invitation', [invalidGet('INVALID')], InvitationValidationErrorBody)
  @ApiErrorResponse(500, 'Unexpected failure', [invalidGet('INVALID')], InvitationValidationErrorBody)
  validateInvitation(@Param('token') token: string) {
    return this.invitations.validate(token);
  }

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Accept without a token: always 400 INVALID (spec 4.2 rule 1)' })
  @ApiErrorResponse(400, 'No token', [invalidPost('INVALID')], InvitationAcceptanceErrorBody)
  acceptInvitationWithoutToken() {
    return this.invitations.accept('');
  }

  @Post(':token')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Accept an invitation; no body is read and the caller is not checked (spec 4.2)' })
  @ApiParam(TOKEN)
  @ApiOkResponse({ type: AcceptedInvitationResponse })
  @ApiErrorResponse(
    400,
    'Empty token, invitation already accepted, or expired (left pending)',
    [invalidPost('INVALID'), invalidPost('ALREADY_USED'), invalidPost('EXPIRED')],
    InvitationAcceptanceErrorBody,
  )
  @ApiErrorResponse(404, 'No such invitation', [invalidPost('INVALID')], InvitationAcceptanceErrorBody)
  @ApiErrorResponse(500, 'Unexpected failure', [invalidPost('INTERNAL_ERROR')], InvitationAcceptanceErrorBody)
  acceptInvitation(@Param('token') token: string) {
    return this.invitations.accept(token);
  }
}

import { applyDecorators, Controller, Get, HttpCode, HttpStatus, Param, Post, Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { FailureResponse } from '../common/failure-response';
import { ApiErrorResponse, ApiPublic } from '../common/openapi';
import {
  acceptanceErrorBody,
  INVITATION_ERRORS,
  InvitationAcceptanceErrorBody,
  InvitationErrorCode,
  InvitationValidationErrorBody,
  validationErrorBody,
} from './dto/invitation-error';
import { AcceptedInvitationResponse, ValidInvitationResponse } from './dto/invitation.response';
import { InvitationsService } from './invitations.service';

const { invalid, alreadyUsed, expired, internal } = INVITATION_ERRORS;

/** Rules 1–4 of both endpoints, documented with that endpoint's body and schema. */
const ApiRefusals = (body: (error: InvitationErrorCode) => object, type: Type<unknown>, expired400: string) =>
  applyDecorators(
    ApiParam({ name: 'token', description: 'The invitation token: the invitation id (a UUID)' }),
    ApiErrorResponse(
      400,
      `Empty token, invitation already accepted, or ${expired400}`,
      [body(invalid), body(alreadyUsed), body(expired)],
      type,
    ),
    ApiErrorResponse(404, 'No such invitation', [body(invalid)], type),
  );

/**
 * Spec 4.1 and 4.2: public, no session. path-to-regexp v8 has no optional parameters, so the
 * empty token (`/api/invitations` and `/api/invitations/`) has handlers of its own: rule 1.
 */
@ApiTags('Invitations (public)')
@ApiPublic()
@Controller('api/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  @ApiOperation({ summary: 'Validate without a token: always 400 INVALID (spec 4.1 rule 1)' })
  @ApiErrorResponse(400, 'No token', [validationErrorBody(invalid)], InvitationValidationErrorBody)
  validateInvitationWithoutToken() {
    return this.invitations.validate('');
  }

  @Get(':token')
  @ApiOperation({ summary: 'Validate an invitation; a pending one past expiresAt is stored expired (spec 4.1)' })
  @ApiOkResponse({ type: ValidInvitationResponse })
  @ApiRefusals(validationErrorBody, InvitationValidationErrorBody, 'expired')
  @FailureResponse(validationErrorBody(invalid), { type: InvitationValidationErrorBody })
  validateInvitation(@Param('token') token: string) {
    return this.invitations.validate(token);
  }

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Accept without a token: always 400 INVALID (spec 4.2 rule 1)' })
  @ApiErrorResponse(400, 'No token', [acceptanceErrorBody(invalid)], InvitationAcceptanceErrorBody)
  acceptInvitationWithoutToken() {
    return this.invitations.accept('');
  }

  @Post(':token')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Accept an invitation; no body is read and the caller is not checked (spec 4.2)' })
  @ApiOkResponse({ type: AcceptedInvitationResponse })
  @ApiRefusals(acceptanceErrorBody, InvitationAcceptanceErrorBody, 'expired (left pending)')
  @FailureResponse(acceptanceErrorBody(internal), { type: InvitationAcceptanceErrorBody })
  acceptInvitation(@Param('token') token: string) {
    return this.invitations.accept(token);
  }
}

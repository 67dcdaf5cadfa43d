import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Refusal, refusalBody, refusalSchema } from '../../common/refusal';

/** Spec section 7: the invitation error codes; and the refusal of a suspended tenant's invitations (docs/tenant-lifecycle.md). */
export const INVITATION_ERRORS = {
  invalid: 'INVALID',
  alreadyUsed: 'ALREADY_USED',
  expired: 'EXPIRED',
  internal: 'INTERNAL_ERROR',
  suspended: 'ORGANISATION_SUSPENDED',
} as const;
export type InvitationErrorCode = (typeof INVITATION_ERRORS)[keyof typeof INVITATION_ERRORS];

/** The body of a refusal of GET /api/invitations/{token}. */
export const validationErrorBody = (error: InvitationErrorCode) => ({ valid: false, error });

/** The body of a refusal of POST /api/invitations/{token}. */
export const acceptanceErrorBody = (error: InvitationErrorCode) => refusalBody(error);

export const validationError = (status: HttpStatus, error: InvitationErrorCode) =>
  new HttpException(validationErrorBody(error), status);

export const acceptanceError = (status: HttpStatus, error: InvitationErrorCode) => new Refusal(status, error);

/** The body of validationError, for the API document. */
export class InvitationValidationErrorBody {
  @ApiProperty({ enum: [false] })
  valid: false;

  @ApiProperty({ enum: [INVITATION_ERRORS.invalid, INVITATION_ERRORS.alreadyUsed, INVITATION_ERRORS.expired] })
  error: InvitationErrorCode;
}

/** The body of acceptanceError, for the API document. */
export const InvitationAcceptanceErrorBody = refusalSchema(
  'InvitationAcceptanceErrorBody',
  Object.values(INVITATION_ERRORS),
);

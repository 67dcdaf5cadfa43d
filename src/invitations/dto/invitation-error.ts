import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** Spec section 7: the invitation error codes. */
export const INVITATION_ERROR_CODES = ['INVALID', 'ALREADY_USED', 'EXPIRED', 'INTERNAL_ERROR'] as const;
export type InvitationErrorCode = (typeof INVITATION_ERROR_CODES)[number];

/** A refusal of GET /api/invitations/{token}: `{valid:false, error}`. */
export const validationError = (status: HttpStatus, error: InvitationErrorCode, cause?: unknown) =>
  new HttpException({ valid: false, error }, status, { cause });

/** A refusal of POST /api/invitations/{token}: `{success:false, error}`. */
export const acceptanceError = (status: HttpStatus, error: InvitationErrorCode, cause?: unknown) =>
  new HttpException({ success: false, error }, status, { cause });

/** The body of validationError, for the API document. */
export class InvitationValidationErrorBody {
  @ApiProperty({ enum: [false] })
  valid: false;

  @ApiProperty({ enum: ['INVALID', 'ALREADY_USED', 'EXPIRED'] })
  error: InvitationErrorCode;
}

/** The body of acceptanceError, for the API document. */
export class InvitationAcceptanceErrorBody {
  @ApiProperty({ enum: [false] })
  success: false;

  @ApiProperty({ enum: INVITATION_ERROR_CODES })
  error: InvitationErrorCode;
}

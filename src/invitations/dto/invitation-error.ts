import { HttpException, HttpStatus } from '@nestjs/common';

/** Spec section 7: the invitation error codes. */
export type InvitationErrorCode = 'INVALID' | 'ALREADY_USED' | 'EXPIRED' | 'INTERNAL_ERROR';

/** A refusal of GET /api/invitations/{token}: `{valid:false, error}`. */
export const validationError = (status: HttpStatus, error: InvitationErrorCode, cause?: unknown) =>
  new HttpException({ valid: false, error }, status, { cause });

/** A refusal of POST /api/invitations/{token}: `{success:false, error}`. */
export const acceptanceError = (status: HttpStatus, error: InvitationErrorCode, cause?: unknown) =>
  new HttpException({ success: false, error }, status, { cause });

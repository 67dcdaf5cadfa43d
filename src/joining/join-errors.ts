import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { INVITATION_ERRORS, InvitationErrorCode } from '../invitations/dto/invitation-error';

/** The refusals of a join beyond the spec's invitation codes, which it answers as spec 4.2 does. */
export const JOIN_ERRORS = {
  emailMismatch: 'EMAIL_MISMATCH',
  emailNotVerified: 'EMAIL_NOT_VERIFIED',
  memberOfAnotherOrganisation: 'MEMBER_OF_ANOTHER_ORGANISATION',
  emailInUse: 'EMAIL_IN_USE',
} as const;
export type JoinErrorCode = (typeof JOIN_ERRORS)[keyof typeof JOIN_ERRORS] | InvitationErrorCode;

/** `{success:false, error}`: the shape of spec 4.2's refusals. */
export const joinErrorBody = (error: JoinErrorCode) => ({ success: false, error });

export const joinRefusal = (status: HttpStatus, error: JoinErrorCode) =>
  new HttpException(joinErrorBody(error), status);

/** The body of joinRefusal, for the API document. */
export class JoinErrorBody {
  @ApiProperty({ enum: [false] })
  success: false;

  @ApiProperty({ enum: [...Object.values(INVITATION_ERRORS), ...Object.values(JOIN_ERRORS)] })
  error: JoinErrorCode;
}

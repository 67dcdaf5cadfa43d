import { HttpStatus } from '@nestjs/common';
import { Refusal, refusalBody, refusalSchema } from '../common/refusal';
import { INVITATION_ERRORS, InvitationErrorCode } from '../invitations/dto/invitation-error';

/** The refusals of a join beyond the spec's invitation codes, which it answers as spec 4.2 does. */
export const JOIN_ERRORS = {
  emailMismatch: 'EMAIL_MISMATCH',
  emailNotVerified: 'EMAIL_NOT_VERIFIED',
  memberOfAnotherOrganisation: 'MEMBER_OF_ANOTHER_ORGANISATION',
  emailInUse: 'EMAIL_IN_USE',
} as const;
export type JoinErrorCode = (typeof JOIN_ERRORS)[keyof typeof JOIN_ERRORS] | InvitationErrorCode;

/** The shape of spec 4.2's refusals. */
export const joinErrorBody = (error: JoinErrorCode) => refusalBody(error);

export const joinRefusal = (status: HttpStatus, error: JoinErrorCode) => new Refusal(status, error);

/** The body of joinRefusal, for the API document. */
export const JoinErrorBody = refusalSchema('JoinErrorBody', [
  ...Object.values(INVITATION_ERRORS),
  ...Object.values(JOIN_ERRORS),
]);

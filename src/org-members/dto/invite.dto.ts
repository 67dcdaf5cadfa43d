import { IsEmail, IsIn, IsNotEmpty, Matches } from 'class-validator';
import { INVITATION_ROLES } from '../../database/entities/invitation.entity';

export const INVALID_EMAIL = 'Invalid email address';
export const INVALID_ROLE = 'Invalid role. Must be admin or member';

/** IsEmail lets control characters through in a quoted local part: CR/LF there would reach the e-mail's headers. */
const NO_CONTROL_CHARACTERS = /^\P{Cc}*$/u;

/**
 * Spec 4.9 rules 1–3. Rules on a property run bottom-up (see validateBody). IsEmail also
 * refuses non-strings and bounds the length (64-character local part, 253-character domain),
 * so a valid address always fits the 320-character column.
 */
export class InviteDto {
  @Matches(NO_CONTROL_CHARACTERS, { message: INVALID_EMAIL })
  @IsEmail({}, { message: INVALID_EMAIL })
  @IsNotEmpty({ message: 'Email is required' })
  email: string;

  @IsIn(INVITATION_ROLES, { message: INVALID_ROLE })
  role: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, Matches } from 'class-validator';
import { EMAIL_REQUIRED } from '../../common/messages';
import { INVITATION_ROLES } from '../../database/entities/invitation.entity';
import { ROLE_KEY_PATTERN } from '../../permissions/permission-catalogue';
import { NO_CONTROL_CHARACTERS } from '../invitation';
import { INVITE_ERRORS } from '../invitation.messages';

/**
 * Spec 4.9 rules 1–3. Rules on a property run bottom-up (see validateBody). IsEmail also
 * refuses non-strings and bounds the length (64-character local part, 253-character domain),
 * so a valid address always fits the 320-character column.
 */
export class InviteDto {
  @ApiProperty({ minLength: 1, example: 'new.member@example.com' })
  @Matches(NO_CONTROL_CHARACTERS, { message: INVITE_ERRORS.invalidEmail })
  @IsEmail({}, { message: INVITE_ERRORS.invalidEmail })
  @IsNotEmpty({ message: EMAIL_REQUIRED })
  email: string;

  @ApiProperty({ enum: INVITATION_ROLES })
  @IsIn(INVITATION_ROLES, { message: INVITE_ERRORS.invalidRole })
  role: string;

  /** Checked after the spec's rules; whether each is a role of the organisation, after rule 7 (docs/roles.md). */
  @ApiPropertyOptional({
    type: [String],
    description:
      'Custom roles of the organisation that the invitee holds once they join, beside `role` (docs/roles.md); ' +
      'at most ROLES_PER_MEMBER, each carrying only permissions the inviter holds',
    example: ['recruiter'],
  })
  @Matches(ROLE_KEY_PATTERN, { each: true, message: INVITE_ERRORS.invalidRoles })
  @IsString({ each: true, message: INVITE_ERRORS.invalidRoles })
  @ArrayUnique({ message: INVITE_ERRORS.invalidRoles })
  @IsArray({ message: INVITE_ERRORS.invalidRoles })
  @IsOptional()
  roles?: string[];
}

import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { EMAIL_REQUIRED } from '../../common/messages';

/** Spec 4.6 rule 2. Rules on a property run bottom-up (see validateBody). */
export class GrantSuperAdminDto {
  @ApiProperty({
    description: 'Matched case-insensitively',
    minLength: 1,
    maxLength: 320,
    example: 'admin@example.com',
  })
  @MaxLength(320, { message: 'Email must be at most 320 characters' })
  @IsString({ message: 'Email must be a string' })
  @IsNotEmpty({ message: EMAIL_REQUIRED })
  email: string;
}

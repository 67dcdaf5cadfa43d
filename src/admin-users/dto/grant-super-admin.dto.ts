import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Spec 4.6 rule 2. Rules on a property run bottom-up (see validateBody). */
export class GrantSuperAdminDto {
  @MaxLength(320, { message: 'Email must be at most 320 characters' })
  @IsString({ message: 'Email must be a string' })
  @IsNotEmpty({ message: 'Email is required' })
  email: string;
}

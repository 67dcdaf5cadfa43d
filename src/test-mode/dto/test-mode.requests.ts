import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { TEST_MODE_ERRORS } from '../test-mode.messages';

/** Ten years: the message names the bound. */
const MAX_ADVANCE_SECONDS = 315_360_000;

/** GET /api/test/mailbox */
export class MailboxQuery {
  @ApiProperty({ description: 'The recipient', example: 'new.member@example.com' })
  @MaxLength(320, { message: TEST_MODE_ERRORS.toRequired })
  @IsEmail({ require_tld: false }, { message: TEST_MODE_ERRORS.toRequired })
  @IsString({ message: TEST_MODE_ERRORS.toRequired })
  to: string;
}

/** POST /api/test/sessions: a user of the store by id, or claims for someone the store need not hold. */
export class TestSessionRequest {
  @ApiPropertyOptional({ description: 'A user of the local store' })
  @IsString({ message: TEST_MODE_ERRORS.sessionSubject })
  @IsOptional()
  userId?: string;

  @ApiPropertyOptional({ description: 'The subject of a token for a user the store need not hold; with email' })
  @IsString({ message: TEST_MODE_ERRORS.sessionSubject })
  @IsOptional()
  sub?: string;

  @ApiPropertyOptional({ description: 'With sub' })
  @IsString({ message: TEST_MODE_ERRORS.sessionSubject })
  @IsOptional()
  email?: string;
}

/** POST /api/test/clock */
export class ClockChangeRequest {
  @ApiPropertyOptional({ description: 'Moves the clock forward by this much, on top of earlier moves', minimum: 1 })
  @Max(MAX_ADVANCE_SECONDS, { message: TEST_MODE_ERRORS.clockChange })
  @Min(1, { message: TEST_MODE_ERRORS.clockChange })
  @IsInt({ message: TEST_MODE_ERRORS.clockChange })
  @IsOptional()
  advanceSeconds?: number;

  @ApiPropertyOptional({ description: 'true: back to the real time' })
  @IsBoolean({ message: TEST_MODE_ERRORS.clockChange })
  @IsOptional()
  reset?: boolean;
}

/** DELETE /api/test/tenants */
export class RemoveTenantsQuery {
  @ApiProperty({ description: 'Removes the tenants whose name starts with this', example: 'qa-run-42-' })
  @MaxLength(255, { message: TEST_MODE_ERRORS.namePrefixRequired })
  @MinLength(1, { message: TEST_MODE_ERRORS.namePrefixRequired })
  @IsString({ message: TEST_MODE_ERRORS.namePrefixRequired })
  namePrefix: string;
}

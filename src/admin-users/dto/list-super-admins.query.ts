import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { INVALID_PAGE_TOKEN, MAX_PAGE_SIZE } from '../../identity/identity-store';

export const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;

/** Spec 4.5: `limit` parsed base 10, default 60; `token` from an earlier page. */
export class ListSuperAdminsQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: MAX_PAGE_SIZE,
    description: 'Page size',
  })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @IsInt({ message: LIMIT_MESSAGE })
  @Transform(({ value }) =>
    value === undefined ? MAX_PAGE_SIZE : /^\s*\d+\s*$/.test(value) ? parseInt(value, 10) : NaN,
  )
  limit: number = MAX_PAGE_SIZE;

  @ApiPropertyOptional({
    maxLength: 2048,
    description: 'The nextToken of an earlier page; absent or empty for the first page',
  })
  @MaxLength(2048, { message: INVALID_PAGE_TOKEN })
  @IsString({ message: INVALID_PAGE_TOKEN })
  @IsOptional()
  // A client that sends `token=` on the first page means "no token".
  @Transform(({ value }) => (value === '' ? undefined : value))
  token?: string;
}

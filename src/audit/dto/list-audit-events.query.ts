import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PAGING_ERRORS } from '../../common/paging';
import { EVERY_AUDIT_EVENT_TYPE, AuditEventType } from '../audit-event';

export const AUDIT_PAGE_SIZE = { default: 50, max: 100 };

export const AUDIT_QUERY_ERRORS = {
  type: `type must be one of: ${EVERY_AUDIT_EVENT_TYPE.join(', ')}`,
  limit: `limit must be an integer from 1 to ${AUDIT_PAGE_SIZE.max}`,
  since: 'since must be an ISO 8601 date-time',
  until: 'until must be an ISO 8601 date-time',
  actorId: 'actorId must be a non-empty string of at most 128 characters',
  targetId: 'targetId must be a non-empty string of at most 128 characters',
  cursor: PAGING_ERRORS.invalidCursor,
};

/** One value or a repeated parameter, as Express parses `?type=a&type=b`. */
const asList = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** Filters and paging of the audit trail listings, newest first. */
export class ListAuditEventsQuery {
  @ApiPropertyOptional({
    type: [String],
    enum: EVERY_AUDIT_EVENT_TYPE,
    description: 'Only these types (repeat the parameter for several)',
  })
  @IsIn(EVERY_AUDIT_EVENT_TYPE, { each: true, message: AUDIT_QUERY_ERRORS.type })
  @IsOptional()
  @Transform(asList)
  type?: AuditEventType[];

  @ApiPropertyOptional({ maxLength: 128, description: 'Only events made by this user id' })
  @MaxLength(128, { message: AUDIT_QUERY_ERRORS.actorId })
  @MinLength(1, { message: AUDIT_QUERY_ERRORS.actorId })
  @IsString({ message: AUDIT_QUERY_ERRORS.actorId })
  @IsOptional()
  actorId?: string;

  @ApiPropertyOptional({ maxLength: 128, description: 'Only events about this user or tenant id' })
  @MaxLength(128, { message: AUDIT_QUERY_ERRORS.targetId })
  @MinLength(1, { message: AUDIT_QUERY_ERRORS.targetId })
  @IsString({ message: AUDIT_QUERY_ERRORS.targetId })
  @IsOptional()
  targetId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only events at or after this time (ISO 8601)' })
  @IsISO8601({ strict: true, strictSeparator: true }, { message: AUDIT_QUERY_ERRORS.since })
  @IsOptional()
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only events at or before this time (ISO 8601)' })
  @IsISO8601({ strict: true, strictSeparator: true }, { message: AUDIT_QUERY_ERRORS.until })
  @IsOptional()
  until?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: AUDIT_PAGE_SIZE.max, default: AUDIT_PAGE_SIZE.default })
  @Max(AUDIT_PAGE_SIZE.max, { message: AUDIT_QUERY_ERRORS.limit })
  @Min(1, { message: AUDIT_QUERY_ERRORS.limit })
  @IsInt({ message: AUDIT_QUERY_ERRORS.limit })
  @Transform(({ value }) =>
    value === undefined ? AUDIT_PAGE_SIZE.default : /^\d{1,3}$/.test(value) ? parseInt(value, 10) : NaN,
  )
  limit: number = AUDIT_PAGE_SIZE.default;

  @ApiPropertyOptional({ maxLength: 200, description: 'The nextCursor of an earlier page' })
  @MaxLength(200, { message: AUDIT_QUERY_ERRORS.cursor })
  @IsString({ message: AUDIT_QUERY_ERRORS.cursor })
  @IsOptional()
  cursor?: string;
}

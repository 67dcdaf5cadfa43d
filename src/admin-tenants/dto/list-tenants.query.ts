import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/paging';
import { TENANT_STATUSES, TenantStatus } from '../../database/entities/tenant.entity';
import { TENANT_LIFECYCLE_ERRORS } from '../tenant-lifecycle.messages';

/**
 * GET /api/admin/tenants: `status` (repeatable), and `limit` and `cursor` for a page of the list
 * (PageQueryDto); every other parameter is ignored, as the spec has none.
 */
export class ListTenantsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: TENANT_STATUSES,
    isArray: true,
    description: 'Repeat to ask for several. Absent: the spec answer, every tenant but the deleted ones.',
  })
  @IsIn(TENANT_STATUSES, { each: true, message: TENANT_LIFECYCLE_ERRORS.invalidStatus })
  @IsOptional()
  status?: TenantStatus | TenantStatus[];
}

/** The statuses asked for; undefined when the parameter is absent. */
export const statusesOf = (query: ListTenantsQueryDto): TenantStatus[] | undefined =>
  query.status === undefined ? undefined : [query.status].flat();

/** Whether the query asks for a page (`limit` or `cursor`) rather than the whole list. */
export const asksForPage = (query: ListTenantsQueryDto): boolean =>
  query.limit !== undefined || query.cursor !== undefined;

import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { TENANT_LIFECYCLE_ERRORS } from '../tenant-lifecycle.messages';

/** POST /api/admin/tenants/{id}/suspend: an optional reason, kept in the tenant.suspended event. */
export class SuspendTenantDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Why, for the audit trail; trimmed',
    maxLength: 500,
    example: 'Invoice 2026-114 unpaid',
  })
  @MaxLength(500, { message: TENANT_LIFECYCLE_ERRORS.reasonTooLong })
  @IsString({ message: TENANT_LIFECYCLE_ERRORS.reasonNotString })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsOptional()
  reason?: string | null;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TenantEntity } from '../../database/entities';
import { TENANT_TYPES } from '../../database/entities/tenant.entity';

/** Spec section 2, Tenant. */
export class TenantResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ enum: TENANT_TYPES })
  type: string;

  @ApiProperty({ example: 'pending_owner' })
  status: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

/** Spec 4.3: every tenant, without pagination; or a page of them, with `?limit=&cursor=`. */
export class TenantListResponse {
  @ApiProperty({ type: [TenantResponse] })
  tenants: TenantResponse[];

  @ApiPropertyOptional({
    description: 'A page (`limit` or `cursor` given) that more follow: pass as `cursor` for the next one',
  })
  nextCursor?: string;
}

/** Spec 4.4 rule 5. */
export class CreatedTenantResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  tenant: TenantResponse;
}

export const toTenantResponse = (tenant: TenantEntity): TenantResponse => ({
  id: tenant.id,
  name: tenant.name,
  type: tenant.type,
  status: tenant.status,
  createdAt: tenant.createdAt.toISOString(),
});

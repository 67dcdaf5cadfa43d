import { ApiProperty } from '@nestjs/swagger';
import { MemberCounts } from '../../identity/identity-store';
import { TenantResponse } from './tenant.response';

/** How many members hold each role. */
export class MemberCountsResponse implements MemberCounts {
  @ApiProperty({ type: 'integer', minimum: 0 })
  owner: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  admin: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  member: number;
}

/** GET /api/admin/tenants/{id}. */
export class TenantDetailsResponse {
  @ApiProperty()
  tenant: TenantResponse;

  @ApiProperty()
  members: MemberCountsResponse;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Invitations still pending: not accepted, revoked or past expiresAt',
  })
  pendingInvitations: number;
}

/** PATCH, suspend and reactivate: the tenant as it is now. */
export class ChangedTenantResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  tenant: TenantResponse;
}

/** DELETE /api/admin/tenants/{id}. */
export class DeletedTenantResponse {
  @ApiProperty({ enum: [true] })
  success: true;
}

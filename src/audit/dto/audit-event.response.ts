import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVERY_AUDIT_EVENT_TYPE } from '../audit-event';

class AuditActorResponse {
  @ApiProperty() id: string;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
}

class AuditTargetResponse {
  @ApiProperty({
    enum: [
      'tenant',
      'user',
      'invitation',
      'domain',
      'join_request',
      'test_mode',
      'scim_token',
      'scim_group',
      'scim_role_mapping',
      'role',
      'permissions',
      'sso_connection',
    ],
  })
  type: string;
  @ApiProperty({ type: String, nullable: true, description: 'null for an invitation: its id is its token' }) id:
    string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) email?: string | null;
}

class AuditEventResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: EVERY_AUDIT_EVENT_TYPE }) type: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty({ type: String, nullable: true }) tenantId: string | null;
  @ApiProperty({
    type: AuditActorResponse,
    nullable: true,
    description: 'null for the public accept and the operator CLI',
  })
  actor: AuditActorResponse | null;
  @ApiProperty({ type: AuditTargetResponse }) target: AuditTargetResponse;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Details of the change, e.g. the role' })
  data: Record<string, unknown>;
}

export class AuditEventPageResponse {
  @ApiProperty({ type: [AuditEventResponse], description: 'Newest first' }) events: AuditEventResponse[];
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page; absent on the last page' })
  nextCursor?: string;
}

import { AuditEventEntity } from './audit-event.entity';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { InvitationEmailOutboxEntity } from './invitation-email-outbox.entity';
import { InvitationEntity } from './invitation.entity';
import { TenantEntity } from './tenant.entity';
import { UserEntity } from './user.entity';

export { AuditEventEntity, IdempotencyKeyEntity, InvitationEmailOutboxEntity, InvitationEntity, TenantEntity, UserEntity };
export const ENTITIES = [TenantEntity, InvitationEntity, UserEntity, InvitationEmailOutboxEntity, AuditEventEntity, IdempotencyKeyEntity];

import { AuditEventEntity } from './audit-event.entity';
import { InvitationEmailOutboxEntity } from './invitation-email-outbox.entity';
import { InvitationEntity } from './invitation.entity';
import { TenantEntity } from './tenant.entity';
import { UserEntity } from './user.entity';

export { AuditEventEntity, InvitationEmailOutboxEntity, InvitationEntity, TenantEntity, UserEntity };
export const ENTITIES = [TenantEntity, InvitationEntity, UserEntity, InvitationEmailOutboxEntity, AuditEventEntity];

import { AuditEventEntity } from './audit-event.entity';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { InvitationEmailOutboxEntity } from './invitation-email-outbox.entity';
import { InvitationEntity } from './invitation.entity';
import { JoinRequestEntity } from './join-request.entity';
import { LeaseEntity } from './lease.entity';
import { MembershipGrantEntity } from './membership-grant.entity';
import { MembershipRemovalEntity } from './membership-removal.entity';
import { NoticeEmailOutboxEntity } from './notice-email-outbox.entity';
import { OrgDomainEntity, OrgDomainRoleEntity } from './org-domain.entity';
import {
  InvitationRoleEntity,
  MemberRoleEntity,
  OrgRoleEntity,
  OrgRolePermissionEntity,
  ProductPermissionEntity,
} from './role.entity';
import {
  ScimGroupEntity,
  ScimGroupMemberEntity,
  ScimRoleMappingEntity,
  ScimRoleMappingRoleEntity,
  ScimTokenEntity,
  ScimUserEntity,
} from './scim.entity';
import {
  SsoAssertionEntity,
  SsoAttemptEntity,
  SsoConnectionEntity,
  SsoEnforcementEntity,
  SsoIdentityEntity,
  SsoRequestEntity,
} from './sso.entity';
import { SessionCutoffEntity, SessionEntity } from './session.entity';
import { SetupLinkEntity, SetupLinkItemEntity } from './setup-link.entity';
import { TenantEntity } from './tenant.entity';
import { UserEntity } from './user.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

export {
  AuditEventEntity,
  IdempotencyKeyEntity,
  InvitationEmailOutboxEntity,
  InvitationEntity,
  InvitationRoleEntity,
  JoinRequestEntity,
  LeaseEntity,
  MemberRoleEntity,
  MembershipGrantEntity,
  MembershipRemovalEntity,
  NoticeEmailOutboxEntity,
  OrgDomainEntity,
  OrgDomainRoleEntity,
  OrgRoleEntity,
  OrgRolePermissionEntity,
  ProductPermissionEntity,
  ScimGroupEntity,
  ScimGroupMemberEntity,
  ScimRoleMappingEntity,
  ScimRoleMappingRoleEntity,
  ScimTokenEntity,
  ScimUserEntity,
  SessionCutoffEntity,
  SessionEntity,
  SetupLinkEntity,
  SetupLinkItemEntity,
  SsoAssertionEntity,
  SsoAttemptEntity,
  SsoConnectionEntity,
  SsoEnforcementEntity,
  SsoIdentityEntity,
  SsoRequestEntity,
  TenantEntity,
  UserEntity,
  WebhookDeliveryEntity,
};
export const ENTITIES = [
  TenantEntity,
  InvitationEntity,
  UserEntity,
  InvitationEmailOutboxEntity,
  AuditEventEntity,
  IdempotencyKeyEntity,
  WebhookDeliveryEntity,
  MembershipGrantEntity,
  OrgDomainEntity,
  OrgDomainRoleEntity,
  JoinRequestEntity,
  ScimTokenEntity,
  ScimUserEntity,
  ScimGroupEntity,
  ScimGroupMemberEntity,
  ScimRoleMappingEntity,
  ScimRoleMappingRoleEntity,
  LeaseEntity,
  ProductPermissionEntity,
  OrgRoleEntity,
  OrgRolePermissionEntity,
  MemberRoleEntity,
  InvitationRoleEntity,
  MembershipRemovalEntity,
  SsoConnectionEntity,
  SsoRequestEntity,
  SsoIdentityEntity,
  SsoAttemptEntity,
  SsoAssertionEntity,
  SsoEnforcementEntity,
  SessionEntity,
  SessionCutoffEntity,
  SetupLinkEntity,
  SetupLinkItemEntity,
  NoticeEmailOutboxEntity,
];

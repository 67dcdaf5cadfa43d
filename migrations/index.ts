import { CreateTables1763800000000 } from './1763800000000-CreateTables';
import { CreateInvitationEmailOutbox1764000000000 } from './1764000000000-CreateInvitationEmailOutbox';
import { AddUsersEmailKey1764100000000 } from './1764100000000-AddUsersEmailKey';
import { CreateAuditEvents1764200000000 } from './1764200000000-CreateAuditEvents';
import { CreateIdempotencyKeys1764300000000 } from './1764300000000-CreateIdempotencyKeys';
import { CreateWebhookDeliveries1764400000000 } from './1764400000000-CreateWebhookDeliveries';
import { OrderEmailsByCodePoint1764500000000 } from './1764500000000-OrderEmailsByCodePoint';
import { CreateMembershipGrants1764600000000 } from './1764600000000-CreateMembershipGrants';
import { AddTenantLifecycle1764650000000 } from './1764650000000-AddTenantLifecycle';
import { CoverTenantList1764700000000 } from './1764700000000-CoverTenantList';
import { AddInvitationsEmailKey1764800000000 } from './1764800000000-AddInvitationsEmailKey';
import { IndexEveryFilter1764810000000 } from './1764810000000-IndexEveryFilter';
import { CreateOrgDomains1764900000000 } from './1764900000000-CreateOrgDomains';
import { CreateScim1765000000000 } from './1765000000000-CreateScim';
import { CreateOrgDomainClaimLocks1765100000000 } from './1765100000000-CreateOrgDomainClaimLocks';
import { CreateScimOwnerLocks1765200000000 } from './1765200000000-CreateScimOwnerLocks';
import { CreateMembershipVersions1765400000000 } from './1765400000000-CreateMembershipVersions';
import { CreateRoles1765420000000 } from './1765420000000-CreateRoles';
import { CreateLeases1765600000000 } from './1765600000000-CreateLeases';
import { CreateScimRoleMappingRoles1765800000000 } from './1765800000000-CreateScimRoleMappingRoles';
import { CreateMembershipRemovals1765900000000 } from './1765900000000-CreateMembershipRemovals';
import { IndexInvitationsByAddress1765950000000 } from './1765950000000-IndexInvitationsByAddress';
import { CreateSso1766000000000 } from './1766000000000-CreateSso';
import { CreateOrgDomainRoles1766100000000 } from './1766100000000-CreateOrgDomainRoles';
import { SamlConnections1766200000000 } from './1766200000000-SamlConnections';
import { CreateSessions1766300000000 } from './1766300000000-CreateSessions';
import { OidcClientAuthentication1766400000000 } from './1766400000000-OidcClientAuthentication';
import { CreateSetupLinks1766500000000 } from './1766500000000-CreateSetupLinks';

/** Every migration, oldest first. Imported (not globbed) so that ts-jest, ts-node and dist agree. */
export const MIGRATIONS = [
  CreateTables1763800000000,
  CreateInvitationEmailOutbox1764000000000,
  AddUsersEmailKey1764100000000,
  CreateAuditEvents1764200000000,
  CreateIdempotencyKeys1764300000000,
  CreateWebhookDeliveries1764400000000,
  OrderEmailsByCodePoint1764500000000,
  CreateMembershipGrants1764600000000,
  AddTenantLifecycle1764650000000,
  CoverTenantList1764700000000,
  AddInvitationsEmailKey1764800000000,
  IndexEveryFilter1764810000000,
  CreateOrgDomains1764900000000,
  CreateScim1765000000000,
  CreateOrgDomainClaimLocks1765100000000,
  CreateScimOwnerLocks1765200000000,
  CreateMembershipVersions1765400000000,
  CreateRoles1765420000000,
  CreateLeases1765600000000,
  CreateScimRoleMappingRoles1765800000000,
  CreateMembershipRemovals1765900000000,
  IndexInvitationsByAddress1765950000000,
  CreateSso1766000000000,
  CreateOrgDomainRoles1766100000000,
  SamlConnections1766200000000,
  CreateSessions1766300000000,
  OidcClientAuthentication1766400000000,
  CreateSetupLinks1766500000000,
];

import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { JoiningModule } from '../joining/joining.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { RolesModule } from '../roles/roles.module';
import { ScimAdminService } from './scim-admin.service';
import { ScimDiscoveryController, ScimNotFoundController } from './scim-discovery.controller';
import { ScimGroupsController } from './scim-groups.controller';
import { ScimGroupsService } from './scim-groups.service';
import { ScimGroupsStore } from './scim-groups.store';
import { ScimMemberships } from './scim-memberships';
import { ScimOwnerLock } from './scim-owner-lock';
import { ScimRoleMappingsStore } from './scim-role-mappings.store';
import { ScimRoles } from './scim-roles';
import { ScimTokenGuard } from './scim-token.guard';
import { ScimTokensController } from './scim-tokens.controller';
import { ScimTokensStore } from './scim-tokens.store';
import { ScimUsersController } from './scim-users.controller';
import { ScimUsersService } from './scim-users.service';
import { ScimUsersStore } from './scim-users.store';

/**
 * SCIM 2.0 (RFC 7643, RFC 7644; docs/scim.md): each organisation's identity provider keeps its
 * members in step at /scim/v2, with a bearer token that its owners make at /api/org/scim/tokens.
 * RateLimitModule brings the throttler storage that counts SCIM_RATE_LIMIT; JoiningModule the
 * membership grants that a user pool is written through.
 */
@Module({
  imports: [AuditModule, JoiningModule, RateLimitModule, RolesModule],
  controllers: [
    ScimTokensController,
    ScimDiscoveryController,
    ScimUsersController,
    ScimGroupsController,
    // Last: it answers every other /scim/v2 path.
    ScimNotFoundController,
  ],
  providers: [
    ScimTokensStore,
    ScimTokenGuard,
    ScimAdminService,
    ScimUsersStore,
    ScimUsersService,
    ScimMemberships,
    ScimOwnerLock,
    ScimRoleMappingsStore,
    ScimRoles,
    ScimGroupsStore,
    ScimGroupsService,
  ],
  exports: [ScimAdminService],
})
export class ScimModule {}

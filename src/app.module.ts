import { DynamicModule, Module } from '@nestjs/common';
import { AdminTenantsModule } from './admin-tenants/admin-tenants.module';
import { TenantInvitationsModule } from './admin-tenants/tenant-invitations.module';
import { AdminUsersModule } from './admin-users/admin-users.module';
import { AuditTrailModule } from './audit/audit-trail.module';
import { AuthModule } from './auth/auth.module';
import { CommonModule } from './common/common.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DomainsModule } from './domains/domains.module';
import { MeModule } from './me/me.module';
import { HealthModule } from './health/health.module';
import { IdentityModule } from './identity/identity.module';
import { InvitationPageModule } from './invitation-page/invitation-page.module';
import { InvitationsModule } from './invitations/invitations.module';
import { JoiningModule } from './joining/joining.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { BulkInvitationsModule } from './bulk-invitations/bulk-invitations.module';
import { OrgInvitationsModule } from './org-invitations/org-invitations.module';
import { OrgMembersModule } from './org-members/org-members.module';
import { OrgPeopleModule } from './org-people/org-people.module';
import { PermissionsModule } from './permissions/permissions.module';
import { MembershipsModule } from './memberships/memberships.module';
import { RolesModule } from './roles/roles.module';
import { ScimModule } from './scim/scim.module';
import { SessionsModule } from './sessions/sessions.module';
import { SetupLinksModule } from './setup-links/setup-links.module';
import { SsoModule } from './sso/sso.module';
import { TestModeModule } from './test-mode/test-mode.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({
  imports: [
    CommonModule,
    LoggingModule,
    MetricsModule,
    DatabaseModule,
    IdentityModule,
    PermissionsModule,
    MembershipsModule,
    AuthModule,
    SessionsModule,
    AdminTenantsModule,
    TenantInvitationsModule,
    AdminUsersModule,
    InvitationsModule,
    InvitationPageModule,
    JoiningModule,
    OrgMembersModule,
    OrgInvitationsModule,
    BulkInvitationsModule,
    OrgPeopleModule,
    DomainsModule,
    MeModule,
    AuditTrailModule,
    WebhooksModule,
    ScimModule,
    RolesModule,
    SsoModule,
    HealthModule,
  ],
})
export class AppModule {
  /**
   * The app for `config`, which every module reads: with the routes under /api/test/ only when
   * TEST_MODE=true; otherwise they do not exist (404).
   */
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forConfig(config),
        ...(config.testMode.enabled ? [TestModeModule] : []),
        SetupLinksModule.forConfig(config),
      ],
    };
  }
}

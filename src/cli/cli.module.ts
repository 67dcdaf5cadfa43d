import { Module } from '@nestjs/common';
import { AdminTenantsModule } from '../admin-tenants/admin-tenants.module';
import { TenantInvitationsModule } from '../admin-tenants/tenant-invitations.module';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { CommonModule } from '../common/common.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { IdentityModule } from '../identity/identity.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { MetricsModule } from '../metrics/metrics.module';
import { PermissionsModule } from '../permissions/permissions.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SsoSecretsRotation } from '../sso/sso-secrets-rotation';
import { SsoSecretsStore } from '../sso/sso-secrets.store';
import { DevSeedService } from './dev-seed.service';
import { LocalUsersService } from './local-users.service';
import { TenantRecordsService } from './tenant-records.service';

@Module({
  imports: [
    ConfigModule.fromEnvironment(),
    CommonModule,
    DatabaseModule,
    IdentityModule,
    PermissionsModule,
    AuthModule,
    AuditModule,
    SessionsModule,
    // The tenant lifecycle reaches the invitations' module (a rename drops a cached name), whose service counts in Metrics.
    MetricsModule,
    AdminTenantsModule,
    TenantInvitationsModule,
    InvitationsModule,
  ],
  providers: [LocalUsersService, TenantRecordsService, DevSeedService, SsoSecretsStore, SsoSecretsRotation],
})
export class CliModule {}

import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { JoiningModule } from '../joining/joining.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ScimRoleMappingsStore } from '../scim/scim-role-mappings.store';
import { OidcClient } from './oidc/oidc-client';
import { OidcSignIn } from './oidc/oidc-sign-in';
import { CertificateExpiryWarnings } from './saml/certificate-expiry-warnings';
import { SamlClient } from './saml/saml-client';
import { SamlSignIn } from './saml/saml-sign-in';
import { SsoActivations } from './sso-activations';
import { SsoAttempts } from './sso-attempts';
import { SsoConfiguredGuard } from './sso-configured.guard';
import { SsoDiscoverLimitGuard } from './sso-discover-limit.guard';
import { SsoConnectionsController, SsoEnforcementController } from './sso-connections.controller';
import { SsoConnectionsService } from './sso-connections.service';
import { SsoConnectionsStore } from './sso-connections.store';
import { SsoHttp } from './sso-http';
import { SsoMembership } from './sso-membership';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoStartService } from './sso-start.service';
import { SsoSignInsStore } from './sso-sign-ins.store';
import { SsoBrowserController, SsoDiscoveryController } from './sso.controller';

/**
 * Single sign-on per organisation (docs/sso.md): OIDC and SAML connections, discovery, the start and
 * the callbacks, each protocol's adapter (oidc/, saml/) under one sign-in. RateLimitModule brings the counters of the discovery limit.
 * Joins go through JoiningService, the path of invitations and domains; a removal is read from the
 * removal facts (MembershipRemovalsStore, global), as the domain join reads it; a joining person's
 * roles from their groups by SCIM's role mappings (ScimRoleMappingsStore).
 */
@Module({
  imports: [AuditModule, JoiningModule, RateLimitModule],
  controllers: [SsoConnectionsController, SsoEnforcementController, SsoDiscoveryController, SsoBrowserController],
  providers: [
    SsoActivations,
    SsoConfiguredGuard,
    SsoDiscoverLimitGuard,
    SsoHttp,
    OidcClient,
    OidcSignIn,
    SamlClient,
    SamlSignIn,
    CertificateExpiryWarnings,
    SsoConnectionsStore,
    SsoSignInsStore,
    SsoConnectionsService,
    SsoStartService,
    SsoMembership,
    SsoSignInService,
    SsoAttempts,
    ScimRoleMappingsStore,
  ],
  exports: [SsoConnectionsService, SsoConnectionsStore, SsoConfiguredGuard, SsoActivations],
})
export class SsoModule {}

import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AppConfig } from '../config/app-config';
import { DomainsModule } from '../domains/domains.module';
import { MailModule } from '../mail/mail.module';
import { ScimModule } from '../scim/scim.module';
import { SsoModule } from '../sso/sso.module';
import { SetupApiController } from './setup-api.controller';
import { SetupApiService } from './setup-api.service';
import { SetupDomainsController } from './setup-domains.controller';
import { SetupLinkMail } from './setup-link-mail';
import { SetupLinksTestController } from './setup-links-test.controller';
import { SetupLinksController } from './setup-links.controller';
import { SetupLinksService } from './setup-links.service';
import { SetupLinksStore } from './setup-links.store';
import { SetupOpenController } from './setup-open.controller';
import { SetupPageService } from './page/setup-page.service';
import { SetupPageController } from './setup-page.controller';
import { SetupScimController } from './setup-scim.controller';
import { SetupSessionGuard } from './setup-session.guard';
import { SetupSessionsService } from './setup-sessions.service';
import { SetupSsoController } from './setup-sso.controller';
import { SetupStepsService } from './setup-steps.service';

/**
 * Setup links (docs/setup-links.md): an owner's link lets the IT admin set up the organisation's
 * domains, single sign-on and SCIM, through the org routes' own services. Test mode adds the
 * read-back of a link's token.
 */
@Module({})
export class SetupLinksModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: SetupLinksModule,
      imports: [AuditModule, MailModule, DomainsModule, SsoModule, ScimModule],
      controllers: [
        SetupLinksController,
        SetupOpenController,
        SetupPageController,
        SetupApiController,
        SetupDomainsController,
        SetupSsoController,
        SetupScimController,
        ...(config.testMode.enabled ? [SetupLinksTestController] : []),
      ],
      providers: [
        SetupLinksStore,
        SetupLinkMail,
        SetupLinksService,
        SetupSessionsService,
        SetupSessionGuard,
        SetupApiService,
        SetupStepsService,
        SetupPageService,
      ],
    };
  }
}

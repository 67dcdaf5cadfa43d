import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AppConfig } from '../config/app-config';
import { DomainsModule } from '../domains/domains.module';
import { ScimModule } from '../scim/scim.module';
import { SsoModule } from '../sso/sso.module';
import { SetupApiController } from './setup-api.controller';
import { SetupApiService } from './setup-api.service';
import { SetupLinksTestController } from './setup-links-test.controller';
import { SetupLinksController } from './setup-links.controller';
import { SetupLinksService } from './setup-links.service';
import { SetupLinksStore } from './setup-links.store';
import { SetupOpenController } from './setup-open.controller';
import { SetupPageService } from './page/setup-page.service';
import { SetupPageController } from './setup-page.controller';
import { SetupSessionGuard } from './setup-session.guard';
import { SetupSessionsService } from './setup-sessions.service';

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
      imports: [AuditModule, DomainsModule, SsoModule, ScimModule],
      controllers: [
        SetupLinksController,
        SetupOpenController,
        SetupPageController,
        SetupApiController,
        ...(config.testMode.enabled ? [SetupLinksTestController] : []),
      ],
      providers: [
        SetupLinksStore,
        SetupLinksService,
        SetupSessionsService,
        SetupSessionGuard,
        SetupApiService,
        SetupPageService,
      ],
    };
  }
}

import { HttpStatus, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainsService } from '../domains/domains.service';
import { ScimAdminService } from '../scim/scim-admin.service';
import { SsoConnectionsService } from '../sso/sso-connections.service';
import { SetupCompletedAnswer, SetupOverview, SetupSteps } from './dto/setup-link.response';
import { setupLinkEvents } from './setup-link-events';
import { SetupLinkMail } from './setup-link-mail';
import { SetupLinksStore } from './setup-links.store';
import { SETUP_ERRORS, SETUP_REASONS, setupRefusal } from './setup-links.messages';
import { SetupSession } from './setup-sessions.service';

/**
 * What the setup session sees and ends (docs/setup-links.md): its organisation, intents and each
 * granted step's state, read through the org routes' own services; and the completion.
 */
@Injectable()
export class SetupApiService {
  constructor(
    private readonly store: SetupLinksStore,
    private readonly mail: SetupLinkMail,
    private readonly domains: DomainsService,
    private readonly sso: SsoConnectionsService,
    private readonly scim: ScimAdminService,
    private readonly clock: Clock,
  ) {}

  /** GET /api/setup. */
  async overview({ link, intents, caller }: SetupSession, base: string): Promise<SetupOverview> {
    const steps: SetupSteps = {};
    if (intents.includes('domain')) steps.domain = await this.domains.list(caller);
    if (intents.includes('sso')) {
      const [{ connections }, { enforced }] = await Promise.all([
        this.sso.list(caller, base),
        this.sso.enforcement(caller, base),
      ]);
      steps.sso = { connections, enforced };
    }
    if (intents.includes('scim')) steps.scim = await this.scim.listTokens(caller);
    return {
      organisation: { id: link.tenantId, name: link.tenantName ?? 'Organisation' },
      intents,
      expiresAt: link.expiresAt.toISOString(),
      steps,
    };
  }

  /** POST /api/setup/complete: the link completed and closed, its session with it; the owners e-mailed. */
  async complete({ link }: SetupSession): Promise<SetupCompletedAnswer> {
    const mail = await this.mail.completionRows(link);
    if (!(await this.store.complete(link, this.clock.now(), [setupLinkEvents.completed(link)], mail)))
      throw setupRefusal(HttpStatus.CONFLICT, SETUP_ERRORS.closed, SETUP_REASONS.closed);
    this.mail.kick();
    return { success: true, status: 'completed' };
  }
}

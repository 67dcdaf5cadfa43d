import { Injectable } from '@nestjs/common';
import { parseCookieHeader } from '../../auth/session-token';
import { SETUP_SESSION_COOKIE } from '../../common/openapi';
import { ScimAdminService } from '../../scim/scim-admin.service';
import { SsoConnectionsService } from '../../sso/sso-connections.service';
import { SetupApiService } from '../setup-api.service';
import { SetupSession, SetupSessionsService } from '../setup-sessions.service';
import { SetupAttempt, SetupIntent, SetupPageModel, TEST_ATTEMPT_PREFIX } from './setup-page.parts';

/**
 * What `GET /setup` renders: GET /api/setup's answer for the request's setup session, each
 * connection's latest test sign-in, the SCIM base URL and role mapping; null without a session
 * (none, or its link no longer open), which the page answers with the way back in.
 */
@Injectable()
export class SetupPageService {
  constructor(
    private readonly sessions: SetupSessionsService,
    private readonly setup: SetupApiService,
    private readonly sso: SsoConnectionsService,
    private readonly scim: ScimAdminService,
  ) {}

  async model(cookieHeader: string | undefined, base: string): Promise<SetupPageModel | null> {
    const values = parseCookieHeader(cookieHeader ?? '').get(SETUP_SESSION_COOKIE) ?? [];
    const session = values.length === 1 ? await this.sessions.sessionOf(values[0]) : null;
    if (!session) return null;
    const { organisation, intents, expiresAt, steps } = await this.setup.overview(session, base);
    const connections = steps.sso?.connections ?? [];
    return {
      organisation,
      intents: intents as SetupIntent[],
      expiresAt,
      domains: steps.domain?.domains ?? [],
      connections,
      lastTests: Object.fromEntries(
        await Promise.all(connections.map(async ({ id }) => [id, await this.lastTest(session, id)])),
      ),
      scimTokens: steps.scim?.tokens ?? [],
      scimBaseUrl: `${base}/scim/v2`,
      roleMapping: session.intents.includes('scim') ? (await this.scim.roleMapping(session.caller)).mapping : {},
    };
  }

  private async lastTest(session: SetupSession, connectionId: string): Promise<SetupAttempt | undefined> {
    const { attempts } = await this.sso.attempts(session.caller, connectionId);
    return attempts.find((attempt) => attempt.detail.startsWith(TEST_ATTEMPT_PREFIX));
  }
}

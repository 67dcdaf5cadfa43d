import { HttpStatus, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { SsoConnectionEntity } from '../../database/entities';
import {
  CallbackVerdict,
  EMAIL,
  failedCheck,
  refusedWith,
  RequestSecrets,
  single,
  SsoProtocol,
  StartRefused,
} from '../sso-protocol';
import { openSecret, SecretUnreadable } from '../sso-secrets';
import { SsoSignInsStore } from '../sso-sign-ins.store';
import { redirectUriOf } from '../sso-views';
import { SSO_ERRORS } from '../sso.messages';
import { Discovery, OidcCheckFailed, OidcClient, OidcClientSettings } from './oidc-client';
import { OIDC_REASONS } from './oidc.messages';

/**
 * OpenID Connect's side of a sign-in (docs/sso.md, "Signing in", step 3): the authorisation request,
 * and the callback's checks in order: the state used once, the provider's error, the code exchanged
 * and the ID token checked (OidcClient), an e-mail claim not marked unverified.
 */
@Injectable()
export class OidcSignIn implements SsoProtocol<OidcCallbackQuery> {
  readonly type = 'oidc';

  constructor(
    private readonly client: OidcClient,
    private readonly signIns: SsoSignInsStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  newRequestSecrets(): RequestSecrets {
    return this.client.newRequestSecrets();
  }

  async providerAddress(
    connection: SsoConnectionEntity,
    secrets: RequestSecrets,
    base: string,
    loginHint?: string,
  ): Promise<string> {
    const url = await this.client.authorizationUrl(this.startSettings(connection, base), {
      ...secrets,
      scopes: connection.scopes,
      loginHint,
    });
    return url.href;
  }

  claimedRequest(query: OidcCallbackQuery): string | undefined {
    return single(query.state);
  }

  async verify(connection: SsoConnectionEntity, query: OidcCallbackQuery, base: string): Promise<CallbackVerdict> {
    // The pending request: known, of this connection, unused, unexpired; used now, once.
    const state = single(query.state);
    if (!state)
      return refusedWith(failedCheck(HttpStatus.BAD_REQUEST, SSO_ERRORS.stateInvalid, OIDC_REASONS.stateMissing));
    const used = await this.signIns.useRequest(state, connection.id, this.clock.now());
    if ('unusable' in used)
      return refusedWith(failedCheck(HttpStatus.BAD_REQUEST, SSO_ERRORS.stateInvalid, `state ${used.unusable}`));
    const { request } = used;
    const test = request.purpose === 'test';
    const idpError = single(query.error);
    if (idpError) {
      const answered = OIDC_REASONS.providerAnswered(idpError, single(query.error_description));
      return refusedWith(failedCheck(HttpStatus.BAD_REQUEST, SSO_ERRORS.idpError, answered), { test });
    }
    const tokenInvalid = (reason: string) => failedCheck(HttpStatus.BAD_REQUEST, SSO_ERRORS.tokenInvalid, reason);
    if (!single(query.code)) return refusedWith(tokenInvalid(OIDC_REASONS.codeMissing), { test });
    // The code exchange and the ID token's checks, on the redirect URI with the query the provider sent.
    let settings: OidcClientSettings;
    try {
      settings = this.settings(connection, base);
    } catch (error) {
      if (error instanceof SecretUnreadable) return refusedWith(secretUnreadable(), { test });
      throw error;
    }
    const callbackUrl = new URL(settings.redirectUri);
    for (const name of ['code', 'state', 'iss']) {
      const value = single(query[name]);
      if (value !== undefined) callbackUrl.searchParams.set(name, value);
    }
    let verified;
    try {
      verified = await this.client.exchange(settings, callbackUrl, request);
    } catch (error) {
      if (error instanceof OidcCheckFailed) return refusedWith(tokenInvalid(error.message.slice(0, 900)), { test });
      throw error;
    }
    const { subject, email, groups } = verified;
    const known = { subject, email, test };
    if (!email || !EMAIL.test(email)) return refusedWith(tokenInvalid(OIDC_REASONS.missingClaim('email')), known);
    if (verified.emailVerified === false) return refusedWith(tokenInvalid(OIDC_REASONS.emailUnverified), known);
    const { purpose, returnTo } = request;
    return { person: { connection, subject, email: email.toLowerCase(), sentEmail: email, groups, purpose, returnTo } };
  }

  /** The connection's settings with its secret opened; throws SecretUnreadable when no key opens it. */
  private settings(connection: SsoConnectionEntity, base: string): OidcClientSettings {
    return {
      discovery: JSON.parse(connection.discovery) as Discovery,
      clientId: connection.clientId,
      clientSecret: openSecret(this.config.sso.secretsKeys, connection.id, connection.clientSecret),
      authMethod: connection.tokenEndpointAuthMethod,
      redirectUri: redirectUriOf(base, connection.id),
    };
  }

  /** A start's settings: a secret that no key opens refuses it, before the browser is sent to the provider. */
  private startSettings(connection: SsoConnectionEntity, base: string): OidcClientSettings {
    try {
      return this.settings(connection, base);
    } catch (error) {
      if (error instanceof SecretUnreadable) throw new StartRefused(secretUnreadable());
      throw error;
    }
  }
}

const secretUnreadable = () =>
  failedCheck(HttpStatus.SERVICE_UNAVAILABLE, SSO_ERRORS.secretUnreadable, OIDC_REASONS.secretUnreadable);

/** The callback's query as the browser brought it. */
export type OidcCallbackQuery = Record<string, unknown>;

import { CanActivate, HttpStatus, Injectable } from '@nestjs/common';
import { ssoSessionIssuer } from '../auth/session-token';
import { AppConfig } from '../config/app-config';
import { userPoolOf } from '../config/identity-config';
import { SSO_ERRORS, ssoRefusal } from './sso.messages';

/**
 * Every SSO route, first: under NODE_ENV=production without SSO_SECRETS_KEY the service starts and
 * serves everything else, and single sign-on answers 503 SSO_NOT_CONFIGURED, saying what to set; so it
 * does in cognito mode without what its sessions need (ssoSessionIssuer).
 */
@Injectable()
export class SsoConfiguredGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (this.config.sso.secretsKey === null)
      throw ssoRefusal(
        HttpStatus.SERVICE_UNAVAILABLE,
        SSO_ERRORS.notConfigured,
        'SSO_SECRETS_KEY is not set: an operator sets it (32 bytes, e.g. openssl rand -base64 32) to turn single sign-on on',
      );
    if (userPoolOf(this.config) !== null && ssoSessionIssuer(this.config) === undefined)
      throw ssoRefusal(
        HttpStatus.SERVICE_UNAVAILABLE,
        SSO_ERRORS.notConfigured,
        'IDENTITY_STORE=cognito: single sign-on needs PUBLIC_BASE_URL (its sessions’ issuer) and, in production, AUTH_JWT_SECRET',
      );
    return true;
  }
}

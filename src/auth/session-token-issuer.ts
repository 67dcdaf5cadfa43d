import { Injectable } from '@nestjs/common';
import { sign } from 'jsonwebtoken';
import { AppConfig } from '../config/app-config';
import { IdentityUser } from '../identity/identity-store';
import { SESSION_ALGORITHM, ssoSessionIssuer } from './session-token';

/** Signs local-mode id tokens (HS256 with AUTH_JWT_SECRET) whose claims come from a user record. */
@Injectable()
export class SessionTokenIssuer {
  constructor(private readonly config: AppConfig) {}

  /**
   * `emailVerified`: the token carries `email_verified: true` (the operator vouches for the address).
   * `ssoConnection`: a single sign-on made it (docs/sso.md): `amr: ["sso"]` and the connection's id.
   */
  issue(
    user: IdentityUser,
    ttlSeconds: number,
    options: { emailVerified?: boolean; ssoConnection?: string } = {},
  ): string {
    const claims = {
      token_use: 'id',
      email: user.email,
      ...(options.emailVerified && { email_verified: true }),
      ...(options.ssoConnection !== undefined && { amr: ['sso'], sso_connection: options.ssoConnection }),
      ...(user.userType && { 'custom:user_type': user.userType }),
      ...(user.tenantId && { 'custom:tenant_id': user.tenantId }),
      ...(user.role && { 'custom:role': user.role }),
    };
    // In cognito mode a single sign-on's session names this service as its issuer, for the pool's app client.
    const issuer = options.ssoConnection === undefined ? undefined : ssoSessionIssuer(this.config);
    return sign(claims, this.config.authJwtSecret, {
      algorithm: SESSION_ALGORITHM,
      subject: user.id,
      expiresIn: ttlSeconds,
      ...(issuer !== undefined && { issuer, audience: this.config.cognito.clientId }),
    });
  }
}

import type { Request } from 'express';
import { AppConfig } from '../config/app-config';

/** Local mode signs and verifies HS256 with AUTH_JWT_SECRET; Cognito signs its id tokens RS256. */
export const SESSION_ALGORITHM = 'HS256';
export const COGNITO_SESSION_ALGORITHM = 'RS256';

/** The id token of the request, read from cookies only (CONTRACT: Sessions). */
export function sessionTokenFromRequest(config: AppConfig, request: Request): string | null {
  const cookies: Record<string, unknown> = request.cookies ?? {};
  const token = cookies[config.sessionCookieName];
  if (typeof token === 'string' && token) return token;
  if (config.identityStore === 'cognito' && config.cognito.clientId) {
    // The cookies that Amplify sets: LastAuthUser names the user whose idToken to read.
    const prefix = `CognitoIdentityServiceProvider.${config.cognito.clientId}`;
    const user = cookies[`${prefix}.LastAuthUser`];
    if (typeof user === 'string' && user) {
      const amplifyToken = cookies[`${prefix}.${user}.idToken`];
      if (typeof amplifyToken === 'string' && amplifyToken) return amplifyToken;
    }
  }
  return null;
}

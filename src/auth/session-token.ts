import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { userPoolOf } from '../config/identity-config';

/** Local mode signs and verifies HS256 with AUTH_JWT_SECRET; Cognito signs its id tokens RS256. */
export const SESSION_ALGORITHM = 'HS256';
export const COGNITO_SESSION_ALGORITHM = 'RS256';

/**
 * In cognito mode, the `iss` of the sessions that single sign-on makes (docs/sso.md): this service's
 * PUBLIC_BASE_URL, when set and when AUTH_JWT_SECRET is a real key in production; otherwise undefined and
 * the pool's tokens alone are sessions. Local mode's tokens carry no `iss`.
 */
export function ssoSessionIssuer(config: AppConfig): string | undefined {
  if (userPoolOf(config) === null || config.publicBaseUrl === undefined) return undefined;
  if (config.nodeEnv === 'production' && config.usingDevelopmentJwtSecret) return undefined;
  return config.publicBaseUrl;
}

/** The cookie of a session this service issued (docs/sessions.md); the sign-out clears it with the same attributes. */
export const sessionCookie = (name: string, token: string, maxAgeSeconds: number, secure: boolean): string =>
  `${name}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** The request's id token, or why it has none (for the debug log: never the token itself). */
export type SessionTokenLookup = { token: string } | { refused: string };

/** Percent-decoding that leaves a malformed sequence as it came. */
function decodeComponent(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The Cookie header as name → values, names and values percent-decoded: js-cookie (Amplify's
 * CookieStorage in the browser) encodes names and values with encodeURIComponent and decodes a
 * few characters back, server-side adapters use plain encodeURIComponent; decoding both gives
 * the same name. Every value of a repeated name is kept, so that a conflict can be seen.
 */
export function parseCookieHeader(header: string): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0) continue;
    const name = decodeComponent(pair.slice(0, equals).trim());
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!name || !value) continue;
    const values = cookies.get(name) ?? [];
    values.push(decodeComponent(value));
    cookies.set(name, values);
  }
  return cookies;
}

/** One cookie's value; a name sent twice with different values is ambiguous, so no session. */
function single(cookies: Map<string, string[]>, name: string, what: string): SessionTokenLookup | undefined {
  const values = cookies.get(name);
  if (!values) return undefined;
  if (new Set(values).size > 1)
    return { refused: `the ${what} cookie is sent ${values.length} times with different values` };
  return { token: values[0] };
}

/** The id token of the request, read from cookies only (docs/api.md, "Sessions"). */
export function sessionTokenFromRequest(config: AppConfig, request: Request): SessionTokenLookup {
  const cookies = parseCookieHeader(request.headers.cookie ?? '');
  const own = single(cookies, config.sessionCookieName, 'session');
  if (own) return own;
  const clientId = userPoolOf(config)?.clientId;
  if (clientId) {
    // The cookies that Amplify sets: LastAuthUser names the user whose idToken to read.
    const prefix = `CognitoIdentityServiceProvider.${clientId}`;
    const user = single(cookies, `${prefix}.LastAuthUser`, 'LastAuthUser');
    if (user && 'refused' in user) return user;
    if (user)
      return (
        single(cookies, `${prefix}.${user.token}.idToken`, 'idToken') ?? {
          refused: 'no idToken cookie for the LastAuthUser cookie',
        }
      );
  }
  return {
    refused: request.headers.authorization
      ? 'no session cookie (an Authorization header is sent, but sessions are read from cookies only)'
      : 'no session cookie',
  };
}

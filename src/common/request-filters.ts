import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isPublicInvitationPath } from './route-pattern';

export const HOST_NOT_ALLOWED = 'Host not allowed';
export const ORIGIN_NOT_ALLOWED = 'Origin not allowed';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** ALLOWED_HOSTS: a Host that is not listed (as `host` or `host:port`) is refused with 400. */
export function allowedHostsFilter(allowedHosts: string[]): RequestHandler {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  return (request: Request, response: Response, next: NextFunction) => {
    const host = (request.headers.host ?? '').toLowerCase();
    const hostname = host.replace(/:\d+$/, '');
    if (allowed.has(host) || allowed.has(hostname)) return next();
    response.status(400).json({ error: HOST_NOT_ALLOWED });
  };
}

/**
 * ALLOWED_ORIGINS: a cookie-authenticated state-changing request whose Origin is present and
 * not listed is refused with 403, so that another site cannot ride on the portal's session.
 * The public invitation routes are exempt: the API's accept reads no session, so there is none to
 * ride on, and the invitation page, which joins a signed-in visitor, refuses another site's
 * requests itself (isCrossSite): it posts from the service's own origin, which the list of
 * portals need not hold. So are `sessionlessPrefixes`, routes that read no session (SAML's ACS, which
 * an identity provider's page posts to from its own origin).
 */
export function allowedOriginsFilter(allowedOrigins: string[], sessionlessPrefixes: string[] = []): RequestHandler {
  const allowed = new Set(allowedOrigins);
  const sessionless = (path: string) => sessionlessPrefixes.some((prefix) => path.startsWith(`${prefix}/`));
  return (request: Request, response: Response, next: NextFunction) => {
    const origin = request.headers.origin;
    const refused =
      UNSAFE_METHODS.has(request.method) &&
      !!request.headers.cookie &&
      !!origin &&
      !allowed.has(origin) &&
      !isPublicInvitationPath(request.path) &&
      !sessionless(request.path);
    if (!refused) return next();
    response.status(403).json({ error: ORIGIN_NOT_ALLOWED });
  };
}

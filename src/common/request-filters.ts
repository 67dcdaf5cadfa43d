import type { NextFunction, Request, RequestHandler, Response } from 'express';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** ALLOWED_HOSTS: a Host that is not listed (as `host` or `host:port`) is refused with 400. */
export function allowedHostsFilter(allowedHosts: string[]): RequestHandler {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  return (request: Request, response: Response, next: NextFunction) => {
    const host = (request.headers.host ?? '').toLowerCase();
    const hostname = host.replace(/:\d+$/, '');
    if (allowed.has(host) || allowed.has(hostname)) return next();
    response.status(400).json({ error: 'Host not allowed' });
  };
}

/**
 * ALLOWED_ORIGINS: a cookie-authenticated state-changing request whose Origin is present and
 * not listed is refused with 403, so that another site cannot ride on the portal's session.
 */
export function allowedOriginsFilter(allowedOrigins: string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (request: Request, response: Response, next: NextFunction) => {
    const origin = request.headers.origin;
    const refused = UNSAFE_METHODS.has(request.method) && !!request.headers.cookie && !!origin && !allowed.has(origin);
    if (!refused) return next();
    response.status(403).json({ error: 'Origin not allowed' });
  };
}

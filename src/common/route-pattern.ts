import type { Request } from 'express';

/** Requests that matched no route (404s, or refused before routing) share one label. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route pattern that served the request (`/api/invitations/:token`), never the raw URL: it
 * carries no tokens and keeps metric labels few. Known once Express has routed the request.
 * Nest mounts middleware as wildcard routes (nestjs-pino's on `{/*splat}`), and no handler of
 * ours has a wildcard: a wildcard pattern means that middleware matched and no handler did.
 */
export function routePatternOf(request: Request): string {
  const path: unknown = request.route?.path;
  return typeof path === 'string' && !path.includes('*') ? `${request.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
}

/** Health probes and metric scrapes: operational endpoints outside /api, polled every few seconds. */
export const isOperationalPath = (path: string): boolean => /^\/(health|metrics)(\/|$)/.test(path);

/**
 * The public invitation routes, which read no session: the API's `/api/invitations[/<token>]`
 * and the invitation page `/invitations/<token>` (Express routes ignore case and a trailing slash).
 */
export const isPublicInvitationPath = (path: string): boolean => /^(\/api)?\/invitations(\/[^/]*)?\/?$/i.test(path);

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { isOperationalPath } from './route-pattern';

/**
 * helmet's headers on every response. The API serves JSON only, so its Content-Security-Policy
 * allows nothing at all; the Swagger UI page under `docsPath` gets helmet's default policy
 * (scripts and styles from this origin, inline styles, data: images), without
 * upgrade-insecure-requests, which would break the page when served over plain http in development.
 */
export function securityHeaders(docsPath: string): RequestHandler {
  const api = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  });
  const docs = helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
  return (request: Request, response: Response, next: NextFunction) =>
    (request.path === docsPath || request.path.startsWith(`${docsPath}/`) ? docs : api)(request, response, next);
}

/**
 * Applies `filter` to every request except health probes and metric scrapes: the load balancer
 * and Prometheus address an instance by its IP, whatever ALLOWED_HOSTS lists.
 */
export function exceptOperationalPaths(filter: RequestHandler): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) =>
    isOperationalPath(request.path) ? next() : filter(request, response, next);
}

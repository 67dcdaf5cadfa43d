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
  const api = headersOf(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    }),
  );
  const docs = headersOf(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  return (request: Request, response: Response, next: NextFunction) => {
    response.setHeaders(request.path === docsPath || request.path.startsWith(`${docsPath}/`) ? docs : api);
    next();
  };
}

/**
 * The headers that a helmet middleware sets, worked out once: with these options they do not
 * depend on the request, and running helmet's twelve middlewares on every request cost more than
 * setting what they set. (The X-Powered-By that helmet removes is never set: configureApp turns it off.)
 */
export function headersOf(middleware: ReturnType<typeof helmet>): Map<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  let done = false;
  void middleware({} as never, recorder as never, () => (done = true));
  if (!done) throw new Error('helmet did not finish at once: its headers cannot be worked out ahead');
  return headers;
}

/**
 * Applies `filter` to every request except health probes and metric scrapes: the load balancer
 * and Prometheus address an instance by its IP, whatever ALLOWED_HOSTS lists.
 */
export function exceptOperationalPaths(filter: RequestHandler): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) =>
    isOperationalPath(request.path) ? next() : filter(request, response, next);
}

import { Logger as NestLogger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import { API_DOCS_PATH, setupApiDocs } from './api-docs/api-docs';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { BULK_INVITATIONS_PATH } from './bulk-invitations/bulk-invitations.controller';
import { csvBodyParser, formBodyParser, JSON_BODY_LIMIT_BYTES, jsonBodyParser } from './common/json-body-parser';
import { allowedHostsFilter, allowedOriginsFilter } from './common/request-filters';
import { requestTimeout } from './common/request-timeout';
import { exceptOperationalPaths, securityHeaders } from './common/http-hardening';
import { AppConfig } from './config/app-config';
import { configurationWarnings } from './config/config-summary';
import { ShutdownState } from './health/shutdown-state';
import { AppLogger } from './logging/app-logger';
import { HttpLogger } from './logging/http-logger';
import { Metrics } from './metrics/metrics';
import { IDEMPOTENT_REPLAYED_HEADER } from './idempotency/idempotency.messages';
import { RATE_LIMIT_HEADERS } from './rate-limit/invite-throttler.guard';
import { scimBodyParser } from './scim/scim-body-parser';
import { SCIM_BASE_PATH } from './scim/scim-resources';
import { SIGN_OUT_PATH } from './sessions/me-sessions.controller';
import { SAML_BASE_PATH, SAML_FORM_LIMIT_BYTES } from './sso/sso.controller';

/** Response headers that a portal's script on an allowed origin may read (CORS exposes none but a few by default). */
export const CORS_EXPOSED_HEADERS = [...Object.values(RATE_LIMIT_HEADERS), 'Retry-After', IDEMPOTENT_REPLAYED_HEADER];

/** Options for NestFactory.create and createNestApplication: JSON is the only body we parse. */
export const APP_OPTIONS = { bodyParser: false } as const;

/**
 * Behind a load balancer whose idle timeout is 60 s (AWS ALB's default): keep-alive outlasts it,
 * so that the balancer, never this server, closes an idle connection (else a request sent on it
 * meets a closed socket: a 502); headers must arrive within headersTimeout and the whole request
 * within requestTimeout, so that slow clients cannot hold sockets open. Headers are capped at
 * Node's 16 KB (431 beyond) and at 100 fields.
 */
export const HTTP_SERVER_LIMITS = {
  keepAliveTimeout: 65_000,
  headersTimeout: 66_000,
  requestTimeout: 70_000,
  maxHeadersCount: 100,
};

/** Everything main.ts and the e2e tests share, so that tests run the app as it is served. */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  app.useLogger(app.get(AppLogger));
  for (const warning of configurationWarnings(config)) new NestLogger('Config').warn(warning);
  Object.assign(app.getHttpServer() as Server, HTTP_SERVER_LIMITS);
  app.disable('x-powered-by');
  // Answers are per caller and change with every write, and no client sends If-None-Match: an
  // ETag would only hash every body (1.7 MB for a list of 10,000 tenants) for nothing.
  app.set('etag', false);
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);

  // First, so that every request is logged, timed and answered with security headers, refused ones included.
  app.use(app.get(HttpLogger).middleware);
  app.use(app.get(Metrics).httpMiddleware());
  app.use(securityHeaders(API_DOCS_PATH));
  const shutdown = app.get(ShutdownState);
  app.use((_request: Request, response: Response, next: NextFunction) => {
    // While draining, clients are told not to reuse the connection, so that it can close.
    if (shutdown.isShuttingDown) response.setHeader('Connection', 'close');
    next();
  });

  if (config.allowedHosts) app.use(exceptOperationalPaths(allowedHostsFilter(config.allowedHosts)));
  if (config.allowedOrigins) {
    app.enableCors({ origin: config.allowedOrigins, credentials: true, exposedHeaders: CORS_EXPOSED_HEADERS });
    app.use(allowedOriginsFilter(config.allowedOrigins, [SAML_BASE_PATH]));
  }
  // Only application/json is parsed, text/csv on the bulk invitations and a form on SAML's ACS and the sign-out; any other body reaches
  // the rules as an empty one.
  // SCIM's routes read `application/scim+json` too, up to 1 MB (docs/scim.md).
  app.use(SCIM_BASE_PATH, scimBodyParser());
  // A SAML provider posts its response as a form, up to 1 MB (many groups make a long assertion).
  app.use(SAML_BASE_PATH, formBodyParser(SAML_FORM_LIMIT_BYTES));
  // A browser may sign out by a form post (docs/sessions.md).
  app.use(SIGN_OUT_PATH, formBodyParser(JSON_BODY_LIMIT_BYTES));
  app.use(jsonBodyParser(JSON_BODY_LIMIT_BYTES));
  app.use(BULK_INVITATIONS_PATH, csvBodyParser(JSON_BODY_LIMIT_BYTES));
  // No global interceptor: with none on a route, Nest runs its handler without rxjs.
  app.use(requestTimeout(config.requestTimeoutMs));
  app.useGlobalFilters(new HttpExceptionFilter());
  setupApiDocs(app, config);
  return app;
}

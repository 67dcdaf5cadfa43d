import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { jsonBodyParser } from './common/json-body-parser';
import { allowedHostsFilter, allowedOriginsFilter } from './common/request-filters';
import { AppConfig } from './config/app-config';

/** Options for NestFactory.create and createNestApplication: JSON is the only body we parse. */
export const APP_OPTIONS = { bodyParser: false } as const;

/** Everything main.ts and the e2e tests share, so that tests run the app as it is served. */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  if (config.usingDevelopmentJwtSecret && config.identityStore === 'local') {
    new Logger('Config').warn('AUTH_JWT_SECRET is not set: using the development key. Never do this in production.');
  }
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  if (config.allowedHosts) app.use(allowedHostsFilter(config.allowedHosts));
  if (config.allowedOrigins) {
    app.enableCors({ origin: config.allowedOrigins, credentials: true });
    app.use(allowedOriginsFilter(config.allowedOrigins));
  }
  app.use(cookieParser());
  // Only application/json is parsed; any other body reaches the rules as an empty one.
  app.use(jsonBodyParser('100kb'));
  app.useGlobalFilters(new HttpExceptionFilter());
  return app;
}

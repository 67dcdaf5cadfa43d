import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { AppLogger } from './app-logger';
import { createHttpLogger, HttpLogger } from './http-logger';

@Module({
  providers: [{ provide: HttpLogger, inject: [AppConfig, Metrics], useFactory: createHttpLogger }],
  exports: [HttpLogger],
})
class HttpLoggerModule {}

/**
 * Structured logs (pino). AppLogger (nestjs-pino's Logger, wiring lines at debug) becomes the
 * app's Nest logger (configureApp calls useLogger) and writes through HttpLogger's logger, whose
 * mixin adds the id of the request being served. `forRoutes: []`: nestjs-pino binds no logger per
 * request, since HttpLogger's middleware (mounted by configureApp ahead of the filters that may
 * refuse a request) already carries the request id.
 * nestjs-pino keeps one root logger per process, the first app's, for log calls made outside a
 * request: only test suites run several apps in one process, and they log nothing by default.
 */
@Module({
  imports: [
    HttpLoggerModule,
    LoggerModule.forRootAsync({
      imports: [HttpLoggerModule],
      inject: [HttpLogger],
      useFactory: (http: HttpLogger) => ({ pinoHttp: { logger: http.logger }, useExisting: true, forRoutes: [] }),
    }),
  ],
  providers: [AppLogger],
  exports: [AppLogger],
})
export class LoggingModule {}

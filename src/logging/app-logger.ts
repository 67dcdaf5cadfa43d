import { Injectable } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

/** Nest's own start-up chatter: one line per module, route and phase. */
export const WIRING_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * The app's Nest logger: nestjs-pino's, with Nest's wiring lines moved to debug, so that a
 * start at info shows the configuration summary and what needs attention, not 50 lines of wiring.
 */
@Injectable()
export class AppLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && WIRING_CONTEXTS.has(context)) super.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}

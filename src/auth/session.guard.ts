import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { messageOf } from '../common/api-error';
import { Caller } from './caller';
import { SESSION_STRATEGY, sessionRefusalOf } from './session.strategy';

/**
 * Reads the session and puts the caller on the request, or nothing. It never refuses:
 * the guards after it decide, because each route answers "no session" differently.
 * Why a request has no session is logged at debug level, never the token.
 */
@Injectable()
export class SessionGuard extends AuthGuard(SESSION_STRATEGY) {
  private readonly logger = new Logger('Session');

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      await super.canActivate(context);
    } catch (error) {
      // A token that makes the verifier itself throw is no session, never a 500.
      this.logger.debug(`No session: the token could not be verified (${messageOf(error)})`);
    }
    return true;
  }

  override handleRequest<T = Caller>(error: unknown, caller: T | false, info: unknown, context: ExecutionContext): T {
    if (!caller) {
      const request = context.switchToHttp().getRequest<Request>();
      const reason =
        sessionRefusalOf(request) ?? (error ? messageOf(error) : (info as { message?: string } | undefined)?.message);
      this.logger.debug(`No session: ${reason ?? 'unknown reason'}`);
    }
    return (caller || undefined) as T;
  }
}

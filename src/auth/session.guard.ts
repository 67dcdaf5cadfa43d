import { ExecutionContext, Injectable, Logger, Type } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { messageOf } from '../common/api-error';
import { Caller } from './caller';
import { confirmsSessions, SessionCheck } from './session-check';
import { SESSION_STRATEGY, sessionRefusalOf } from './session.strategy';

/**
 * Reads the session and puts the caller on the request, or nothing. It never refuses:
 * the guards after it decide, because each route answers "no session" differently.
 * A verified token whose session ended (docs/sessions.md) is no session either: SessionCheck's one
 * read, here unless a guard of the route makes it beside its own (@ConfirmsSessions()); a read that
 * fails is the route's failure. Why a request has no session is logged at debug level, never the token.
 */
@Injectable()
export class SessionGuard extends AuthGuard(SESSION_STRATEGY) {
  private readonly logger = new Logger('Session');
  /** Per route handler: whether a guard of its confirms the session. */
  private readonly deferred = new WeakMap<object, boolean>();

  constructor(
    private readonly sessions: SessionCheck,
    private readonly reflector: Reflector,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      await super.canActivate(context);
    } catch (error) {
      // A token that makes the verifier itself throw is no session, never a 500.
      this.logger.debug(`No session: the token could not be verified (${messageOf(error)})`);
    }
    const request = context.switchToHttp().getRequest<Request>();
    if (request.user && !this.confirmedLater(context)) await this.sessions.verify(request);
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

  private confirmedLater(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let deferred = this.deferred.get(handler);
    if (deferred === undefined) {
      deferred = this.routeGuards(context).some((guard) => confirmsSessions(guard));
      this.deferred.set(handler, deferred);
    }
    return deferred;
  }

  private routeGuards(context: ExecutionContext): Type[] {
    return [
      ...(this.reflector.get<Type[]>(GUARDS_METADATA, context.getClass()) ?? []),
      ...(this.reflector.get<Type[]>(GUARDS_METADATA, context.getHandler()) ?? []),
    ];
  }
}

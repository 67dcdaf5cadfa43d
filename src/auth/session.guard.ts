import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { Caller } from './caller';
import { SESSION_STRATEGY } from './session.strategy';

/**
 * Reads the session and puts the caller on the request, or nothing. It never refuses:
 * the guards after it decide, because each route answers "no session" differently.
 */
@Injectable()
export class SessionGuard extends AuthGuard(SESSION_STRATEGY) {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    return true;
  }

  override handleRequest<T = Caller>(_error: unknown, caller: T | false): T {
    return (caller || undefined) as T;
  }
}

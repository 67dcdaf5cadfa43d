import { CanActivate, ExecutionContext, HttpStatus, Injectable, Logger, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/api-error';
import { FORBIDDEN, UNAUTHORIZED } from '../common/messages';
import { callerCheckTimeoutMs } from '../common/request-timeout';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { IdentityStore } from '../identity/identity-store';
import { Caller } from './caller';
import { ConfirmsSessions, SessionCheck } from './session-check';
import { decideSuperAdmin, NOT_AUTHENTICATED } from './super-admin.policy';

const ANONYMOUS_IS_UNAUTHORIZED = 'superAdmin:anonymousIsUnauthorized';

/**
 * Spec section 5: on /api/admin/tenants a caller with no session gets 401; every other
 * failed check, and every failure on the other admin routes, gets 403.
 */
export const AnonymousIsUnauthorized = () => SetMetadata(ANONYMOUS_IS_UNAUTHORIZED, true);

/**
 * Runs after SessionGuard; reads the caller's record from the identity store, and confirms the
 * session beside it (SessionCheck): a failed check of either is forbidden.
 */
@ConfirmsSessions()
@Injectable()
export class SuperAdminGuard implements CanActivate {
  private readonly logger = new Logger(SuperAdminGuard.name);

  constructor(
    private readonly identity: IdentityStore,
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
    private readonly sessions: SessionCheck,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const claimed: Caller | undefined = request.user;
    let reason: string;
    try {
      // Bounded within the request's deadline, so that a stuck store is refused 403, not 503.
      const [record, caller] = claimed
        ? await withTimeout(
            Promise.all([this.identity.findById(claimed.id), this.sessions.verify(request)]),
            callerCheckTimeoutMs(this.config.requestTimeoutMs),
          )
        : [null, undefined];
      const decision = decideSuperAdmin(caller, caller ? record : null);
      if (decision.allowed) return true;
      reason = decision.reason;
    } catch (error) {
      // A failed check is forbidden (spec section 5), even when the store is what failed.
      this.logger.error(`Super-admin check failed: ${(error as Error).message}`);
      reason = 'Identity store unavailable';
    }
    const anonymousIsUnauthorized = this.reflector.getAllAndOverride<boolean>(ANONYMOUS_IS_UNAUTHORIZED, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (reason === NOT_AUTHENTICATED && anonymousIsUnauthorized) {
      throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
    }
    throw new ApiError(HttpStatus.FORBIDDEN, FORBIDDEN);
  }
}

import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/api-error';
import { failureResponse } from '../common/failure-response';
import { callerCheckTimeoutMs } from '../common/request-timeout';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { IdentityStore, IdentityUser } from '../identity/identity-store';
import { Caller, OrgCaller } from './caller';
import { confirmOrgAdmin, decideOrgAdmin, OrgAdminDecision, OrgAdminMessages } from './org-admin.policy';

const ORG_ADMIN_MESSAGES = 'orgAdmin:messages';

/** The messages OrgAdminGuard answers with on this route. */
export const OrgAdminMessagesFor = (messages: OrgAdminMessages) => SetMetadata(ORG_ADMIN_MESSAGES, messages);

/**
 * Runs after SessionGuard: the caller must be an owner or admin of an organisation, by the
 * token's claims (the spec's rules) and then by the identity store's record, read once per
 * request. The caller then acts with the stored role, as an OrgCaller (@CurrentOrgCaller()).
 */
@Injectable()
export class OrgAdminGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityStore,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const caller: Caller | undefined = request.user;
    const messages = this.reflector.getAllAndOverride<OrgAdminMessages>(ORG_ADMIN_MESSAGES, [
      context.getHandler(),
      context.getClass(),
    ]);
    refuseUnless(decideOrgAdmin(caller, messages));
    const confirmed = caller!;
    const record = await this.storedRecord(confirmed, context.getHandler());
    refuseUnless(confirmOrgAdmin(confirmed, record, messages));
    // Both allowed it: the claims name a tenant, and the record is of an organisation user in it.
    request.user = { ...confirmed, tenantId: confirmed.tenantId!, role: record!.role } satisfies OrgCaller;
    return true;
  }

  /**
   * Bounded within the request's deadline (callerCheckTimeoutMs).
   * A store that fails answers the route's own @FailureResponse, as the handler's failure would.
   */
  private async storedRecord(caller: Caller, handler: object): Promise<IdentityUser | null> {
    try {
      return await withTimeout(this.identity.findById(caller.id), callerCheckTimeoutMs(this.config.requestTimeoutMs));
    } catch (error) {
      throw failureResponse(handler, error);
    }
  }
}

function refuseUnless(decision: OrgAdminDecision): void {
  if (!decision.allowed) throw new ApiError(decision.status, decision.error);
}

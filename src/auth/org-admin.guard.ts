import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/api-error';
import { failureResponse } from '../common/failure-response';
import { callerCheckTimeoutMs } from '../common/request-timeout';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { IdentityStore, IdentityUser } from '../identity/identity-store';
import { Caller, OrgCaller } from './caller';
import {
  confirmOrgAdmin,
  decideOrgAdmin,
  isOrgUser,
  isRoleRefusal,
  OrgAdminDecision,
  OrgAdminMessages,
  refuseClaimedRole,
} from './org-admin.policy';

const ORG_ADMIN_MESSAGES = 'orgAdmin:messages';

/** The messages OrgAdminGuard answers with on this route. */
export const OrgAdminMessagesFor = (messages: OrgAdminMessages) => SetMetadata(ORG_ADMIN_MESSAGES, messages);

/**
 * Runs after SessionGuard: the caller must be an owner or admin of an organisation, by the
 * token's claims (the spec's rules) and then by the identity store's record, read once per
 * request together with the tenant's status (in one round trip where the store can), so that a
 * suspension holds from the next request. The caller then acts with the stored role, as an
 * OrgCaller (@CurrentOrgCaller()).
 */
@Injectable()
export class OrgAdminGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityStore,
    private readonly config: AppConfig,
    private readonly tenants: TenantStatusReader,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const caller: Caller | undefined = request.user;
    const messages = this.reflector.getAllAndOverride<OrgAdminMessages>(ORG_ADMIN_MESSAGES, [
      context.getHandler(),
      context.getClass(),
    ]);
    const claimed = decideOrgAdmin(caller, messages);
    // No session, or claims of no organisation user: decideOrgAdmin refused already.
    if (!caller || !isOrgUser(caller)) {
      refuseUnless(claimed);
      return false;
    }
    if (isRoleRefusal(claimed, messages))
      refuseUnless(refuseClaimedRole(claimed, await this.claimedTenantStatus(caller)));
    refuseUnless(claimed);
    const [record, tenantStatus] = await this.storedRecord(caller, context.getHandler());
    refuseUnless(confirmOrgAdmin(caller, record, messages, tenantStatus));
    // Both allowed it: the claims name a tenant, and the record is of an organisation user in it.
    request.user = { ...caller, role: record!.role } satisfies OrgCaller;
    return true;
  }

  /**
   * Bounded within the request's deadline (callerCheckTimeoutMs).
   * A store that fails answers the route's own @FailureResponse, as the handler's failure would.
   */
  private async storedRecord(caller: OrgCaller, handler: object): Promise<[IdentityUser | null, TenantStatus | null]> {
    try {
      return await withTimeout(
        this.identity.findWithTenantStatus(caller.id, caller.tenantId, this.tenants),
        callerCheckTimeoutMs(this.config.requestTimeoutMs),
      );
    } catch (error) {
      throw failureResponse(handler, error);
    }
  }

  /**
   * The status of the tenant named by the claims of a caller whom they refuse by role. Only a
   * suspension changes that refusal, so a read that fails leaves it as it is.
   */
  private async claimedTenantStatus(caller: OrgCaller): Promise<TenantStatus | null> {
    try {
      return await withTimeout(
        this.tenants.statusOf(caller.tenantId),
        callerCheckTimeoutMs(this.config.requestTimeoutMs),
      );
    } catch {
      return null;
    }
  }
}

function refuseUnless(decision: OrgAdminDecision): void {
  if (!decision.allowed) throw new ApiError(decision.status, decision.error);
}

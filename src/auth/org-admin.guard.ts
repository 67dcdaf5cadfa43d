import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  HttpStatus,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiError } from '../common/api-error';
import { failureResponse } from '../common/failure-response';
import { callerCheckTimeoutMs } from '../common/request-timeout';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { Refusal } from '../common/refusal';
import { requestOrigin } from '../common/request-origin';
import { IdentityStore, OrgCallerRead } from '../identity/identity-store';
import { CustomGrant, GrantsStore, HeldRoles } from '../permissions/grants.store';
import { REQUIRED_PERMISSION_EXTENSION, ServicePermission } from '../permissions/permission-catalogue';
import { Caller, OrgCaller } from './caller';
import { ConfirmsSessions, SessionCheck, sessionAsk } from './session-check';
import {
  confirmOrgAdmin,
  customRolesMayGrant,
  decideOrgAdmin,
  isOrgUser,
  isRoleRefusal,
  OrgAdminDecision,
  OrgAdminMessages,
  refuseClaimedRole,
  requiresSso,
  RoutePermission,
  SSO_REQUIRED,
  ssoStartUrl,
} from './org-admin.policy';

const ORG_ROUTE_RULE = 'orgAdmin:rule';

/** What OrgAdminGuard asks on a route, and the messages it refuses with. */
interface OrgRouteRule {
  permission: RoutePermission;
  messages: OrgAdminMessages;
  /** Read the caller's custom roles beside the record (@CurrentCallerRoles()), for a route that answers with them. */
  readsCallerRoles?: boolean;
}

/**
 * The permission an org route needs (docs/roles.md), and the messages OrgAdminGuard refuses with:
 * a base role that holds it or a custom role that carries it opens the route. The API document
 * names the permission (`x-required-permission`).
 */
export const RequirePermission = (
  permission: ServicePermission,
  messages: OrgAdminMessages,
  options: Pick<OrgRouteRule, 'readsCallerRoles'> = {},
) =>
  applyDecorators(
    SetMetadata(ORG_ROUTE_RULE, { permission, messages, ...options } satisfies OrgRouteRule),
    ApiExtension(REQUIRED_PERMISSION_EXTENSION, permission),
  );

/**
 * The messages OrgAdminGuard answers with on a route that the base roles alone decide (the owners'
 * set-ups, whose permission OwnerPermissionGuard then checks; reading single sign-on's enforcement): owner or admin when `notOwnerOrAdmin` is given, any role otherwise; no custom role opens it.
 */
export const OrgAdminMessagesFor = (messages: OrgAdminMessages) =>
  SetMetadata(ORG_ROUTE_RULE, { permission: null, messages } satisfies OrgRouteRule);

/**
 * Runs after SessionGuard: the caller must be a user of an organisation whose roles open the
 * route, by the token's claims (the spec's rules) and then by the identity store's record, read
 * once per request together with the tenant's status (in one round trip where the store can), so
 * that a suspension holds from the next request. The caller then acts with the stored role, as an
 * OrgCaller (@CurrentOrgCaller()).
 *
 * Custom roles live in the service's database, never in a token: where the base role does not open
 * the route, one indexed read of the caller's roles says whether one of them carries its permission
 * (it replaces the tenant status read of a refusal by the claims). A caller without such a role is
 * refused exactly as before custom roles existed.
 *
 * The session is confirmed (SessionCheck) from the same read (findOrgCaller joins it in): one that
 * ended is no session (401), whatever the claims would have decided.
 */
@ConfirmsSessions()
@Injectable()
export class OrgAdminGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityStore,
    private readonly config: AppConfig,
    private readonly tenants: TenantStatusReader,
    private readonly grants: GrantsStore,
    private readonly sessions: SessionCheck,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const claimedCaller: Caller | undefined = request.user;
    const rule = this.reflector.getAllAndOverride<OrgRouteRule>(ORG_ROUTE_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const { permission, messages } = rule;
    const claimed = decideOrgAdmin(claimedCaller, messages, permission);
    // No session, or claims of no organisation user: decideOrgAdmin refused already (unless the session ended).
    if (!claimedCaller || !isOrgUser(claimedCaller)) {
      await this.refuseEnded(request, messages, permission);
      refuseUnless(claimed);
      return false;
    }
    // Whether a custom role of the caller carries the permission; undefined while not read.
    let granted: boolean | undefined;
    if (isRoleRefusal(claimed, messages)) {
      const [custom] = await Promise.all([
        this.claimedGrant(claimedCaller, permission),
        this.refuseEnded(request, messages, permission),
      ]);
      if (!custom.granted) refuseUnless(refuseClaimedRole(claimed, custom.tenantStatus));
      granted = true;
    }
    const [{ user: record, gate, session }, held] = await this.storedRecord(claimedCaller, context.getHandler(), rule);
    const confirmed = await this.sessions.verifyWith(request, session);
    if (!confirmed) return refuseUnless(decideOrgAdmin(undefined, messages, permission));
    const caller = confirmed as OrgCaller;
    const tenantStatus = gate?.status ?? null;
    let decision = confirmOrgAdmin(caller, record, messages, tenantStatus, permission, granted);
    if (granted === undefined && isRoleRefusal(decision, messages) && customRolesMayGrant(permission)) {
      granted = await this.storedGrant(caller, permission, context.getHandler());
      decision = confirmOrgAdmin(caller, record, messages, tenantStatus, permission, granted);
    }
    refuseUnless(decision);
    if (requiresSso(gate, record!, caller)) {
      const base = this.config.publicBaseUrl ?? requestOrigin(request.headers);
      throw new Refusal(HttpStatus.FORBIDDEN, SSO_REQUIRED, { startUrl: ssoStartUrl(base, record!.email ?? '') });
    }
    // Both allowed it: the claims name a tenant, and the record is of an organisation user in it.
    request.user = { ...caller, role: record!.role } satisfies OrgCaller;
    if (held) request[CALLER_ROLES] = held;
    return true;
  }

  /**
   * Before a refusal by the claims: a session that ended is refused as no session. A read that fails
   * leaves the claims' refusal as it is.
   */
  private async refuseEnded(request: Request, messages: OrgAdminMessages, permission: RoutePermission): Promise<void> {
    const caller = await this.bounded(this.sessions.verify(request)).catch(() => true);
    if (!caller) refuseUnless(decideOrgAdmin(undefined, messages, permission));
  }

  /**
   * Bounded within the request's deadline (callerCheckTimeoutMs).
   * A store that fails answers the route's own @FailureResponse, as the handler's failure would.
   * With `readsCallerRoles`, the caller's custom roles are read at the same time (no round trip more).
   */
  private async storedRecord(
    caller: OrgCaller,
    handler: object,
    rule: OrgRouteRule,
  ): Promise<[OrgCallerRead, HeldRoles | undefined]> {
    try {
      return await this.bounded(
        Promise.all([
          this.identity.findOrgCaller(sessionAsk(caller), caller.tenantId, this.tenants),
          rule.readsCallerRoles ? this.grants.heldBy(caller.tenantId, caller.id) : undefined,
        ]),
      );
    } catch (error) {
      throw failureResponse(handler, error);
    }
  }

  /** Whether a custom role carries the permission, for a caller whose stored base role does not hold it. */
  private async storedGrant(caller: OrgCaller, permission: ServicePermission, handler: object): Promise<boolean> {
    try {
      return (await this.bounded(this.grants.grantOf(caller.tenantId, caller.id, permission))).granted;
    } catch (error) {
      throw failureResponse(handler, error);
    }
  }

  /**
   * For a caller whom the claims refuse by role: the status of the tenant they name, and whether one
   * of the caller's custom roles there carries the permission. Only a suspension, or such a role,
   * changes that refusal, so a read that fails leaves it as it is.
   */
  private async claimedGrant(caller: OrgCaller, permission: RoutePermission): Promise<CustomGrant> {
    try {
      if (customRolesMayGrant(permission))
        return await this.bounded(this.grants.grantOf(caller.tenantId, caller.id, permission));
      return { tenantStatus: await this.bounded(this.tenants.statusOf(caller.tenantId)), granted: false };
    } catch {
      return { tenantStatus: null, granted: false };
    }
  }

  private bounded<T>(read: Promise<T>): Promise<T> {
    return withTimeout(read, callerCheckTimeoutMs(this.config.requestTimeoutMs));
  }
}

const CALLER_ROLES = 'orgAdmin:callerRoles';

/** The caller's custom roles, read by OrgAdminGuard on a route that asks for them (`readsCallerRoles`). */
export const CurrentCallerRoles = createParamDecorator(
  (_: unknown, context: ExecutionContext): HeldRoles | undefined => context.switchToHttp().getRequest()[CALLER_ROLES],
);

function refuseUnless(decision: OrgAdminDecision): false {
  if (!decision.allowed) throw new ApiError(decision.status, decision.error);
  return false;
}

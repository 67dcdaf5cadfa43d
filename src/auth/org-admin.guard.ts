import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/api-error';
import { Caller } from './caller';
import { decideOrgAdmin, OrgAdminMessages } from './org-admin.policy';

const ORG_ADMIN_MESSAGES = 'orgAdmin:messages';

/** The messages OrgAdminGuard answers with on this route. */
export const OrgAdminMessagesFor = (messages: OrgAdminMessages) => SetMetadata(ORG_ADMIN_MESSAGES, messages);

/** Runs after SessionGuard: the caller must be an owner or admin of an organisation. */
@Injectable()
export class OrgAdminGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const caller: Caller | undefined = context.switchToHttp().getRequest().user;
    const messages = this.reflector.getAllAndOverride<OrgAdminMessages>(ORG_ADMIN_MESSAGES, [
      context.getHandler(),
      context.getClass(),
    ]);
    const decision = decideOrgAdmin(caller, messages);
    if (!decision.allowed) throw new ApiError(decision.status, decision.error);
    return true;
  }
}

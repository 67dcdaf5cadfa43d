import { SessionsService } from '../sessions/sessions.service';
import { HttpStatus, Injectable } from '@nestjs/common';
import { AuditActor, auditEvents } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { ApiError } from '../common/api-error';
import { USER_NOT_FOUND } from '../common/messages';
import { IdentityStore, InvalidPageTokenError, SUPER_ADMIN_ROLE } from '../identity/identity-store';
import { GrantsStore } from '../permissions/grants.store';
import { MembershipRemovalsStore } from '../memberships/membership-removals.store';
import { Clock } from '../common/clock';
import { ADMIN_USERS_MESSAGES } from './admin-users.messages';
import { GrantSuperAdminDto } from './dto/grant-super-admin.dto';
import { ListSuperAdminsQuery } from './dto/list-super-admins.query';
import { toUserResponse, UserResponse } from './dto/user.response';

/**
 * Spec 4.5–4.8: super-administrators and user accounts, through the identity store. Other
 * failures are the routes' @FailureResponse.
 */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly identity: IdentityStore,
    private readonly audit: AuditRecorder,
    private readonly grants: GrantsStore,
    private readonly removals: MembershipRemovalsStore,
    private readonly clock: Clock,
    private readonly sessions: SessionsService,
  ) {}

  /** Spec 4.5; a page token that the store cannot read is bad input. */
  async listSuperAdmins(query: ListSuperAdminsQuery) {
    let page;
    try {
      page = await this.identity.listSuperAdmins({ limit: query.limit, token: query.token });
    } catch (error) {
      if (error instanceof InvalidPageTokenError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    }
    const users = page.users.map(toUserResponse);
    return { users, total: users.length, ...(page.nextToken && { nextToken: page.nextToken }) };
  }

  /** Spec 4.6 rules 3–6. */
  async grantSuperAdmin(dto: GrantSuperAdminDto, actor: AuditActor) {
    // Rule 3: the store searches and keeps the users with the same address (sameEmail).
    const [user] = await this.identity.findByEmail(dto.email);
    if (!user) throw new ApiError(HttpStatus.NOT_FOUND, ADMIN_USERS_MESSAGES.notFoundByEmail);
    if (user.platformRole === SUPER_ADMIN_ROLE) {
      throw new ApiError(HttpStatus.BAD_REQUEST, ADMIN_USERS_MESSAGES.alreadySuperAdmin);
    }
    await this.identity.grantSuperAdmin(user.id);
    await this.audit.recordAfterIdentityChange(auditEvents.superAdminGranted(user, actor));
    const updated = await this.identity.findById(user.id);
    if (!updated) throw new Error('User disappeared while granting the role');
    return { success: true, message: ADMIN_USERS_MESSAGES.granted, user: toUserResponse(updated) };
  }

  /** Spec 4.7. */
  async getUser(id: string): Promise<{ user: UserResponse }> {
    const user = await this.identity.findById(id);
    if (!user) throw new ApiError(HttpStatus.NOT_FOUND, USER_NOT_FOUND);
    return { user: toUserResponse(user) };
  }

  /**
   * Spec 4.8. The removal's facts and the custom roles of the user's organisation go first
   * (docs/roles.md): should the identity store then fail, the account keeps less than it had, never more.
   */
  async deleteUser(id: string, actor: AuditActor) {
    const user = await this.identity.findById(id);
    if (!user) throw new ApiError(HttpStatus.NOT_FOUND, USER_NOT_FOUND);
    // Facts for its organisation and those it asked to join: a request filed before is refused.
    const left = [...new Set([user.tenantId, ...(await this.removals.requestedTenants(user.id))])];
    const at = this.clock.now();
    await this.removals.remember(
      left.flatMap((tenantId) =>
        tenantId ? [{ tenantId, userId: user.id, email: user.email, reason: 'account_deleted' as const, at }] : [],
      ),
    );
    const roles = user.tenantId ? await this.grants.removeMember(user.tenantId, user.id) : [];
    const event = auditEvents.userDeleted(user, actor, roles); // the account as it was
    await this.identity.deleteUser(user.id);
    await this.audit.recordAfterIdentityChange(event);
    await this.sessions.endPersonSessions(user, undefined, 'account_deleted', actor);
    return { success: true, message: ADMIN_USERS_MESSAGES.deleted };
  }
}

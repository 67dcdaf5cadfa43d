/** The events of a person's membership and account: joined, removed, a role changed, made super-admin, deleted. */

import { IdentityUser, SUPER_ADMIN_ROLE } from '../../identity/identity-store';
import { AuditEventType } from '../audit-event-types';
import { AuditActor, NewAuditEvent } from '../audit-event-shape';
import { withRoles } from './role-events';

/** An event about a user, filed under `tenantId`. */
const aboutUser = (
  type: AuditEventType,
  user: IdentityUser,
  tenantId: string | null,
  actor: AuditActor,
  data: Record<string, unknown>,
): NewAuditEvent => ({
  type,
  tenantId,
  actor,
  target: { type: 'user', id: user.id, email: user.email },
  data,
});

export const memberEvents = {
  /**
   * The person joined, by their invitation or by a verified domain: they are actor and target (an
   * approved join request: the approver is the actor). `domain`: the name they joined by;
   * `connection`: the single sign-on connection they signed in through (docs/sso.md).
   */
  memberJoined: (
    member: AuditActor,
    tenantId: string,
    role: string,
    via: 'invitation' | 'domain' | 'sso' = 'invitation',
    extra: { domain?: string; actor?: AuditActor; connection?: string } = {},
  ): NewAuditEvent => ({
    type: 'member.joined',
    tenantId,
    actor: extra.actor ?? member,
    target: { type: 'user', id: member.id, email: member.email },
    data: {
      role,
      via,
      ...(extra.domain !== undefined && { domain: extra.domain }),
      ...(extra.connection !== undefined && { connection: extra.connection }),
    },
  }),
  /** `roles`: the custom roles the member held, which went with the membership. */
  memberRemoved: (member: IdentityUser, actor: AuditActor, roles: string[] = []) =>
    aboutUser('member.removed', member, member.tenantId, actor, {
      role: member.role,
      ...withRoles(roles),
    }),
  memberRoleChanged: (member: IdentityUser, role: string, actor: AuditActor) =>
    aboutUser('member.role_changed', member, member.tenantId, actor, { roleBefore: member.role, roleAfter: role }),
  /** No tenant: the role is the platform's. */
  superAdminGranted: (user: IdentityUser, actor: AuditActor) =>
    aboutUser('super_admin.granted', user, null, actor, { platformRole: SUPER_ADMIN_ROLE }),
  /** Filed under the user's tenant, so that the organisation's trail shows its member leaving. */
  userDeleted: (user: IdentityUser, actor: AuditActor, roles: string[] = []) =>
    aboutUser('user.deleted', user, user.tenantId, actor, {
      platformRole: user.platformRole,
      role: user.role,
      ...withRoles(roles),
    }),
};

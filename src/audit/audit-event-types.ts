/**
 * The catalogue of event types, by feature: every type that the trail may hold. The API document,
 * the listing's filter and the webhooks' consumers read these lists.
 */

/** The event types of the service's own routes and CLI: what production writes. */
export const AUDIT_EVENT_TYPES = [
  'tenant.created',
  'invitation.created',
  'invitation.accepted',
  'invitation.expired',
  'member.removed',
  'super_admin.granted',
  'user.deleted',
  'invitation.revoked',
  'invitation.resent',
  'member.role_changed',
  'member.joined',
  'tenant.activated',
  'tenant.updated',
  'tenant.suspended',
  'tenant.reactivated',
  'tenant.deleted',
  'domain.added',
  'domain.verified',
  'domain.verification_failed',
  'domain.failing',
  'domain.lapsed',
  'domain.updated',
  'domain.removed',
  'domain.released',
  'join_request.created',
  'join_request.approved',
  'join_request.rejected',
] as const;
/** The event types of test mode's routes (docs/test-mode.md): of their own, never mistaken for real actions. */
export const TEST_MODE_EVENT_TYPES = [
  'test.mailbox_read',
  'test.session_issued',
  'test.clock_moved',
  'test.rate_limits_cleared',
  'test.tenants_removed',
] as const;
/** The event types of SCIM provisioning (docs/scim.md); `member.joined` and `member.removed` carry `via: "scim"` there. */
export const SCIM_EVENT_TYPES = [
  'scim.token_created',
  'scim.token_revoked',
  'scim.role_mapping_updated',
  'scim.group_created',
  'scim.group_updated',
  'scim.group_deleted',
  'scim.change_refused',
  'member.updated',
  'member.deactivated',
  'member.reactivated',
] as const;
/** The event types of custom roles and permissions (docs/roles.md). */
export const ROLE_EVENT_TYPES = [
  'role.created',
  'role.updated',
  'role.deleted',
  'member.roles_changed',
  'permissions.catalogue_changed',
] as const;
/** The event types of single sign-on (docs/sso.md); `member.joined` carries `via: "sso"` there. */
export const SSO_EVENT_TYPES = [
  'sso.connection_created',
  'sso.connection_updated',
  'sso.connection_activated',
  'sso.connection_deleted',
  'sso.enforced',
  'sso.login_succeeded',
  'sso.login_failed',
  'sso.certificate_expiring',
] as const;
/** The event types of sessions (docs/sessions.md). */
export const SESSION_EVENT_TYPES = ['session.revoked', 'sessions.revoked_all'] as const;
/** The event types of setup links (docs/setup-links.md); a change made through a link carries `via: {"setupLink": id}`. */
export const SETUP_LINK_EVENT_TYPES = [
  'setup_link.created',
  'setup_link.opened',
  'setup_link.completed',
  'setup_link.revoked',
  'setup_link.expired',
] as const;
/** Every event type that the trail may hold. */
export const EVERY_AUDIT_EVENT_TYPE = [
  ...AUDIT_EVENT_TYPES,
  ...SCIM_EVENT_TYPES,
  ...ROLE_EVENT_TYPES,
  ...SSO_EVENT_TYPES,
  ...SESSION_EVENT_TYPES,
  ...SETUP_LINK_EVENT_TYPES,
  ...TEST_MODE_EVENT_TYPES,
] as const;
export type AuditEventType = (typeof EVERY_AUDIT_EVENT_TYPE)[number];

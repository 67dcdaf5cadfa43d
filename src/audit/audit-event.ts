/**
 * The audit events, assembled from their catalogue: the types (audit-event-types.ts), what an
 * event is (audit-event-shape.ts), and each feature's builders (events/). Importers read them here.
 */

import { domainEvents } from './events/domain-events';
import { invitationEvents } from './events/invitation-events';
import { memberEvents } from './events/member-events';
import { tenantEvents } from './events/tenant-events';

export * from './audit-event-types';
export * from './audit-event-shape';
export type { AuditedRole } from './events/role-events';
export { roleEvents } from './events/role-events';
export type { TenantChanges } from './events/tenant-events';
export type { RevokedSession } from './events/session-events';
export { sessionEvents } from './events/session-events';
export { testModeEvents } from './events/test-mode-events';

/** One builder per change, so that every route records the same shape. */
export const auditEvents = { ...tenantEvents, ...invitationEvents, ...memberEvents, ...domainEvents };

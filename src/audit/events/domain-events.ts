/** The events of verified domains and of the requests to join by one (docs/domains.md). */

import { AuditEventType } from '../audit-event-types';
import { AuditActor, NewAuditEvent } from '../audit-event-shape';

export const domainEvents = {
  /** An event about an organisation's claim on a domain (docs/domains.md); null actor: the re-check loop. */
  aboutDomain: (
    type: AuditEventType,
    domain: { id: string; tenantId: string; name: string },
    actor: AuditActor | null,
    data: Record<string, unknown> = {},
  ): NewAuditEvent => ({
    type,
    tenantId: domain.tenantId,
    actor,
    target: { type: 'domain', id: domain.id },
    data: { domain: domain.name, ...data },
  }),
  aboutJoinRequest: (
    type: AuditEventType,
    request: { id: string; tenantId: string; userId: string; email: string; domain: string },
    actor: AuditActor | null,
    data: Record<string, unknown> = {},
  ): NewAuditEvent => ({
    type,
    tenantId: request.tenantId,
    actor,
    target: { type: 'join_request', id: request.id, email: request.email },
    data: { userId: request.userId, domain: request.domain, ...data },
  }),
};

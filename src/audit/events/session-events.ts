/** The events of sessions (docs/sessions.md): one ended, or all of a person's ended with a "not before". */

import { SessionKind, SessionRevocationReason } from '../../database/entities/session.entity';
import { AuditActor, NewAuditEvent } from '../audit-event-shape';

/** The session as its event names it. */
export interface RevokedSession {
  id: string;
  tenantId: string | null;
  kind: SessionKind;
  connection: { id: string } | null;
}

export const sessionEvents = {
  /** Filed under the organisation the session was made for; `actor` null when nobody asked (a removal, say). */
  sessionRevoked: (
    session: RevokedSession,
    person: AuditActor,
    actor: AuditActor | null,
    reason: SessionRevocationReason,
  ): NewAuditEvent => ({
    type: 'session.revoked',
    tenantId: session.tenantId,
    actor,
    target: { type: 'user', id: person.id, email: person.email },
    data: {
      sessionId: session.id,
      reason,
      via: session.kind,
      ...(session.connection && { connection: session.connection.id }),
    },
  }),
  /** A "not before": every token without `sid` issued earlier is refused. */
  sessionsRevokedAll: (
    person: AuditActor,
    tenantId: string | null,
    actor: AuditActor,
    reason: SessionRevocationReason,
    notBefore: Date,
  ): NewAuditEvent => ({
    type: 'sessions.revoked_all',
    tenantId,
    actor,
    target: { type: 'user', id: person.id, email: person.email },
    data: { reason, notBefore: notBefore.toISOString() },
  }),
};

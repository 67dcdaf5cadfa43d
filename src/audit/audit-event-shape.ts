/** What an audit event is: who made the change, to what, with which data; and its row in audit_events. */

import { Caller } from '../auth/caller';
import { AuditEventEntity } from '../database/entities';
import { AuditEventType } from './audit-event-types';

/**
 * Who made the change; null where nobody signed in did (the public accept, the operator CLI).
 * `via`: the setup link the change was made through (docs/setup-links.md), which the event's data
 * then names.
 */
export interface AuditActor {
  id: string;
  email: string | null;
  via?: AuditVia;
}

/** The way a change came in, beside its actor: a setup link. */
export interface AuditVia {
  setupLink: string;
}

/** What the change was made to. An invitation has no id here: its id is its token, a secret. */
export type AuditTarget =
  | { type: 'tenant'; id: string }
  | { type: 'user'; id: string; email: string | null }
  | { type: 'invitation'; id: null; email: string }
  /** A claim on an e-mail domain (docs/domains.md), named by the domain. */
  | { type: 'domain'; id: string }
  /** A request to join by a domain; the person asking is in `data`. */
  | { type: 'join_request'; id: string; email: string }
  /** Test mode's own actions on the whole service (docs/test-mode.md). */
  | { type: 'test_mode'; id: null }
  /** SCIM's tokens and groups (docs/scim.md). */
  | { type: 'scim_token'; id: string }
  | { type: 'scim_group'; id: string }
  | { type: 'scim_role_mapping'; id: null }
  /** An organisation's custom role, named by its key (docs/roles.md). */
  | { type: 'role'; id: string }
  /** The product's permission catalogue, the platform's. */
  | { type: 'permissions'; id: null }
  /** An organisation's single sign-on connection (docs/sso.md). */
  | { type: 'sso_connection'; id: string }
  /** A setup link (docs/setup-links.md), by id: never its token. */
  | { type: 'setup_link'; id: string };

/** An event before the recorder gives it an id and a time. */
export interface NewAuditEvent {
  type: AuditEventType;
  tenantId: string | null;
  actor: AuditActor | null;
  target: AuditTarget;
  data: Record<string, unknown>;
}

/** The event as the API shows it (and as webhooks send it). */
export interface AuditEvent extends NewAuditEvent {
  id: string;
  occurredAt: string;
}

export const auditActor = (caller: Caller): AuditActor => ({
  id: caller.id,
  email: caller.email,
  ...(caller.setupLink && { via: { setupLink: caller.setupLink } }),
});

/**
 * The event's data as stored: with `via: {"setupLink": id}` when the change came through a link; where
 * the event names a `via` of its own (a session's kind), the link is `setupLink` beside it.
 */
function dataOf({ data, actor }: NewAuditEvent): Record<string, unknown> {
  if (!actor?.via) return data;
  return 'via' in data ? { ...data, setupLink: actor.via.setupLink } : { ...data, via: actor.via };
}

export function toAuditEventRow(id: string, occurredAt: Date, event: NewAuditEvent): AuditEventEntity {
  const { target } = event;
  return {
    id,
    type: event.type,
    occurredAt,
    tenantId: event.tenantId,
    actorId: event.actor?.id ?? null,
    actorEmail: event.actor?.email ?? null,
    targetType: target.type,
    targetId: target.id,
    targetEmail: 'email' in target ? target.email : null,
    data: JSON.stringify(dataOf(event)),
  };
}

export function toAuditEvent(row: AuditEventEntity): AuditEvent {
  const target = {
    type: row.targetType,
    id: row.targetId,
    ...(row.targetEmail !== null && { email: row.targetEmail }),
  } as AuditTarget;
  return {
    id: row.id,
    type: row.type as AuditEventType,
    occurredAt: row.occurredAt.toISOString(),
    tenantId: row.tenantId,
    actor: row.actorId === null ? null : { id: row.actorId, email: row.actorEmail },
    target,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}

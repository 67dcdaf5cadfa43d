import { AuditActor, NewAuditEvent } from '../audit/audit-event';
import { SsoConnectionEntity } from '../database/entities';

/** An event about a connection, filed under its organisation. */
export const connectionEvent = (
  type: NewAuditEvent['type'],
  connection: SsoConnectionEntity,
  actor: AuditActor | null,
  data: Record<string, unknown> = {},
): NewAuditEvent => ({
  type,
  tenantId: connection.tenantId,
  actor,
  target: { type: 'sso_connection', id: connection.id },
  data: { type: connection.type, issuer: connection.issuer, ...data },
});

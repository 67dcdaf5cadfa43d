import { AuditActor } from '../../src/audit/audit-event';
import { SessionRevocationReason } from '../../src/database/entities/session.entity';
import { SessionsService } from '../../src/sessions/sessions.service';

/** A SessionsService for unit tests: keeps the ends of sessions it is asked for instead of writing them. */
export class RecordedSessionEnds extends SessionsService {
  readonly ends: { of: string; tenantId?: string; reason: SessionRevocationReason }[] = [];

  constructor() {
    super(undefined as never, undefined as never, undefined as never, undefined as never, undefined as never);
  }

  override async endPersonSessions(person: AuditActor, tenantId: string | undefined, reason: SessionRevocationReason) {
    this.ends.push({ of: person.id, ...(tenantId !== undefined && { tenantId }), reason });
  }

  override async endSessionsOf(what: { tenantId: string } | { connectionId: string }, reason: SessionRevocationReason) {
    this.ends.push({ of: 'tenantId' in what ? what.tenantId : what.connectionId, reason });
  }
}

import { NewAuditEvent } from '../../src/audit/audit-event';
import { AuditRecorder } from '../../src/audit/audit-recorder';
import { AuditRows } from '../../src/audit/audit-rows';
import { AtomicWriter } from '../../src/database/atomic-writer';

/** An AuditRecorder for unit tests: keeps the events it is asked to record instead of writing them. */
export class RecordedAuditEvents extends AuditRecorder {
  readonly events: NewAuditEvent[] = [];

  constructor() {
    super(undefined as unknown as AtomicWriter, undefined as unknown as AuditRows);
  }

  override async record(event: NewAuditEvent): Promise<void> {
    this.events.push(event);
  }
}

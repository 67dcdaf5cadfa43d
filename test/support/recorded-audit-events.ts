import { parseConfig } from '../../src/config/app-config';
import { NewAuditEvent } from '../../src/audit/audit-event';
import { AuditRecorder } from '../../src/audit/audit-recorder';
import { Clock } from '../../src/common/clock';
import { IdGenerator } from '../../src/common/id-generator';
import { AtomicWriter } from '../../src/database/atomic-writer';

/** An AuditRecorder for unit tests: keeps the events it is asked to record instead of writing them. */
export class RecordedAuditEvents extends AuditRecorder {
  readonly events: NewAuditEvent[] = [];

  constructor() {
    super(undefined as unknown as AtomicWriter, new Clock(), new IdGenerator(), parseConfig({}));
  }

  override async record(event: NewAuditEvent): Promise<boolean> {
    this.events.push(event);
    return true;
  }
}

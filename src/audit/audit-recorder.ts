import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AuditEventEntity } from '../database/entities';
import { Insert } from '../database/insert-atomically';
import { NewAuditEvent, toAuditEventRow } from './audit-event';

/**
 * Writes audit events. A change in our database records its event in the same transaction:
 * `row()` for insertAtomically/updateThenInsertAtomically, or `record(event, manager)` inside a
 * TypeORM transaction. A change in the identity store cannot join a database transaction: its
 * event is recorded right after the store confirmed it (`recordAfterIdentityChange`).
 */
@Injectable()
export class AuditRecorder {
  private readonly logger = new Logger(AuditRecorder.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** The event's row, to insert in the transaction of the change. */
  row(event: NewAuditEvent): Insert {
    return [AuditEventEntity, toAuditEventRow(this.ids.uuid(), this.clock.now(), event)];
  }

  /** Inserts the event through `manager`: the transaction's, so that it commits with the change. */
  async record(event: NewAuditEvent, manager: EntityManager = this.dataSource.manager): Promise<void> {
    const [target, values] = this.row(event);
    await manager.insert(target, values);
  }

  /**
   * After a change that the identity store has made: the change stands whatever happens here, so
   * a failure to record is logged rather than turned into a failure of the request.
   */
  async recordAfterIdentityChange(event: NewAuditEvent): Promise<void> {
    try {
      await this.record(event);
    } catch (error) {
      this.logger.error(`Recording the audit event ${event.type} failed after the identity store changed: ${messageOf(error)}`);
    }
  }
}

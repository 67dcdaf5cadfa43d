import { Logger } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { AtomicWriter, Insert, Statement } from '../database/atomic-writer';
import { AuditEventEntity, WebhookDeliveryEntity } from '../database/entities';
import { NewAuditEvent } from './audit-event';
import { AuditRows } from './audit-rows';
import { SqlStore } from '../database/sql-store';

/**
 * Records the events of changes made in the identity store. Such a change cannot join a database
 * transaction: its event is written on its own, right after the store confirmed it. (A change in
 * our database is written by its store, in one transaction with its AuditRows.) Also the undoing of
 * events whose change the identity store refused after they were written.
 */
@SqlStore()
export class AuditRecorder {
  private readonly logger = new Logger(AuditRecorder.name);

  constructor(
    private readonly writer: AtomicWriter,
    private readonly rows: AuditRows,
  ) {}

  /** Writes the event on its own: its rows, all or none. */
  async record(event: NewAuditEvent): Promise<void> {
    await this.writer.insert(this.rows.of(event));
  }

  /**
   * The statements that delete the audit events (and their webhook deliveries) among `inserts`: the
   * undoing of rows that recorded a change the identity store then refused.
   */
  deletions(inserts: Insert[]): Statement[] {
    const ids = (target: unknown) =>
      inserts.filter(([entity]) => entity === target).map(([, row]) => (row as { id: string }).id);
    const deletions: Statement[] = [];
    for (const [table, target] of [
      ['audit_events', AuditEventEntity],
      ['webhook_deliveries', WebhookDeliveryEntity],
    ] as const) {
      const found = ids(target);
      if (found.length)
        deletions.push([`DELETE FROM ${table} WHERE id IN (${found.map(() => '?').join(', ')})`, found]);
    }
    return deletions;
  }

  /**
   * The change stands whatever happens here, so a failure to record is logged rather than turned
   * into a failure of the request.
   */
  async recordAfterIdentityChange(event: NewAuditEvent): Promise<void> {
    try {
      await this.record(event);
    } catch (error) {
      this.logger.error(
        `Recording the audit event ${event.type} failed after the identity store changed: ${messageOf(error)}`,
      );
    }
  }
}

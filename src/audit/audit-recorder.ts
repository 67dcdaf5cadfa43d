import { Logger } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { AtomicWriter } from '../database/atomic-writer';
import { NewAuditEvent } from './audit-event';
import { AuditRows } from './audit-rows';
import { SqlStore } from '../database/sql-store';

/**
 * Records the events of changes made in the identity store. Such a change cannot join a database
 * transaction: its event is written on its own, right after the store confirmed it. (A change in
 * our database is written by its store, in one transaction with its AuditRows.)
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

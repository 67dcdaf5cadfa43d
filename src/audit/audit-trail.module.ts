import { Module } from '@nestjs/common';
import { AdminAuditEventsController, OrgAuditEventsController } from './audit-events.controller';
import { AuditEventsService } from './audit-events.service';
import { AuditEventsStore } from './audit-events.store';
import { AuditRetention } from './audit-retention';

/** The listings and the retention purge: the server's, not the operator CLI's. */
@Module({
  controllers: [AdminAuditEventsController, OrgAuditEventsController],
  providers: [AuditEventsService, AuditEventsStore, AuditRetention],
})
export class AuditTrailModule {}

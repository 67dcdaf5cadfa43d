import { Module } from '@nestjs/common';
import { AuditRecorder } from './audit-recorder';
import { AuditRows } from './audit-rows';

/** The rows of an event, for every store that changes state (and the operator CLI), and the recorder of identity changes. */
@Module({
  providers: [AuditRows, AuditRecorder],
  exports: [AuditRows, AuditRecorder],
})
export class AuditModule {}

import { Module } from '@nestjs/common';
import { AuditRecorder } from './audit-recorder';

/** The recorder, for every feature that changes state (and the operator CLI). */
@Module({
  providers: [AuditRecorder],
  exports: [AuditRecorder],
})
export class AuditModule {}

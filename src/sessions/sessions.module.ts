import { Global, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { MeSessionsController } from './me-sessions.controller';
import { MemberSessionsController, UserSessionsController } from './member-sessions.controller';
import { SessionRetention } from './session-retention';
import { SessionsService } from './sessions.service';

/**
 * The sessions the service issued (docs/sessions.md): each person's and administrators' view and ends,
 * and the purge. Global: every way out of an organisation ends its sessions through SessionsService.
 */
@Global()
@Module({
  imports: [AuditModule],
  controllers: [MeSessionsController, MemberSessionsController, UserSessionsController],
  providers: [SessionsService, SessionRetention],
  exports: [SessionsService],
})
export class SessionsModule {}

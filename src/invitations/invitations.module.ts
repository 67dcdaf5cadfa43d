import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { InvitationsStore } from './invitations.store';

@Module({
  imports: [AuditModule],
  controllers: [InvitationsController],
  providers: [InvitationsService, InvitationsStore],
  // The invitation page (src/invitation-page) reads and accepts through the same service.
  exports: [InvitationsService, InvitationsStore],
})
export class InvitationsModule {}

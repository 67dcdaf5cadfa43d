import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { MailModule } from '../mail/mail.module';
import { InvitationIssuer } from './invitation-issuer';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { InvitationsStore } from './invitations.store';

@Module({
  imports: [AuditModule, MailModule],
  controllers: [InvitationsController],
  providers: [InvitationsService, InvitationsStore, InvitationIssuer],
  // The invitation page reads and accepts through the same service; the organisation's routes
  // list, revoke and issue invitations through the store and the issuer.
  exports: [InvitationsService, InvitationsStore, InvitationIssuer],
})
export class InvitationsModule {}

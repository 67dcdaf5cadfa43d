import { Module } from '@nestjs/common';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { InvitationsStore } from './invitations.store';

@Module({
  controllers: [InvitationsController],
  providers: [InvitationsService, InvitationsStore],
  exports: [InvitationsStore],
})
export class InvitationsModule {}

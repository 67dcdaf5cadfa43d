import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module';
import { OrgInvitationsController } from './org-invitations.controller';
import { OrgInvitationsService } from './org-invitations.service';

@Module({
  imports: [InvitationsModule],
  controllers: [OrgInvitationsController],
  providers: [OrgInvitationsService],
})
export class OrgInvitationsModule {}

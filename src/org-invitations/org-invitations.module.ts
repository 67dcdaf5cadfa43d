import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module';
import { OrgMembersModule } from '../org-members/org-members.module';
import { OrgInvitationsController } from './org-invitations.controller';
import { OrgInvitationsService } from './org-invitations.service';

@Module({
  imports: [InvitationsModule, OrgMembersModule],
  controllers: [OrgInvitationsController],
  providers: [OrgInvitationsService],
})
export class OrgInvitationsModule {}

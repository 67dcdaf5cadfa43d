import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module';
import { OrgPeopleController } from './org-people.controller';
import { OrgPeopleService } from './org-people.service';

@Module({
  imports: [InvitationsModule],
  controllers: [OrgPeopleController],
  providers: [OrgPeopleService],
})
export class OrgPeopleModule {}

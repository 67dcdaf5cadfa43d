import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module';
import { JoiningModule } from '../joining/joining.module';
import { InvitationPageEnabledGuard } from './invitation-page-enabled.guard';
import { InvitationPageController } from './invitation-page.controller';
import { InvitationPageService } from './invitation-page.service';

@Module({
  imports: [InvitationsModule, JoiningModule],
  controllers: [InvitationPageController],
  providers: [InvitationPageService, InvitationPageEnabledGuard],
})
export class InvitationPageModule {}

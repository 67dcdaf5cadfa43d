import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { OrgInvitationsController } from './org-invitations.controller';
import { OrgInvitationsService } from './org-invitations.service';

@Module({
  imports: [IdempotencyModule, InvitationsModule, RateLimitModule],
  controllers: [OrgInvitationsController],
  providers: [OrgInvitationsService],
})
export class OrgInvitationsModule {}

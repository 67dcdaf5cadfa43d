import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { BulkInvitationsBodyGuard } from './bulk-invitations-body';
import { BulkInvitationsController } from './bulk-invitations.controller';
import { BulkInvitationsService } from './bulk-invitations.service';

@Module({
  imports: [IdempotencyModule, InvitationsModule, RateLimitModule],
  controllers: [BulkInvitationsController],
  providers: [BulkInvitationsService, BulkInvitationsBodyGuard],
})
export class BulkInvitationsModule {}

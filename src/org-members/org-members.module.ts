import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { OrgMembersController } from './org-members.controller';
import { OrgMembersService } from './org-members.service';

@Module({
  imports: [AuditModule, IdempotencyModule, InvitationsModule, RateLimitModule],
  controllers: [OrgMembersController],
  providers: [OrgMembersService],
})
export class OrgMembersModule {}

import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { MailModule } from '../mail/mail.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { InvitationIssuer } from './invitation-issuer';
import { OrgMembersController } from './org-members.controller';
import { OrgMembersService } from './org-members.service';

@Module({
  imports: [AuditModule, IdempotencyModule, InvitationsModule, MailModule, RateLimitModule],
  controllers: [OrgMembersController],
  providers: [OrgMembersService, InvitationIssuer],
  // The resend of an invitation (src/org-invitations) issues invitations as the invite does.
  exports: [InvitationIssuer, IdempotencyModule, RateLimitModule],
})
export class OrgMembersModule {}

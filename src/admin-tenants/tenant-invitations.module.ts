import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module';
import { TenantInvitationsController } from './tenant-invitations.controller';
import { TenantInvitationsService } from './tenant-invitations.service';

@Module({
  imports: [InvitationsModule],
  controllers: [TenantInvitationsController],
  providers: [TenantInvitationsService],
  // The operator CLI invites a tenant's first owner by the same rules.
  exports: [TenantInvitationsService],
})
export class TenantInvitationsModule {}

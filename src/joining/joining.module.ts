import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AppConfig } from '../config/app-config';
import { IdentityStore } from '../identity/identity-store';
import { InvitationsModule } from '../invitations/invitations.module';
import { JoiningController } from './joining.controller';
import { JoiningService } from './joining.service';
import { MembershipGrantsRepository } from './membership-grants.repository';
import { MembershipGrantsWorker, PoolMemberships } from './membership-grants.worker';
import { MembershipsRepository } from './memberships.repository';

@Module({
  imports: [AuditModule, InvitationsModule],
  controllers: [JoiningController],
  providers: [
    JoiningService,
    MembershipsRepository,
    MembershipGrantsRepository,
    MembershipGrantsWorker,
    {
      // The Cognito store writes the grants; the local store never needs them (its users are in the join's transaction).
      provide: PoolMemberships,
      inject: [AppConfig, IdentityStore],
      useFactory: (config: AppConfig, identity: IdentityStore) =>
        config.identityStore === 'cognito' ? identity : null,
    },
  ],
  // The invitation page joins through the same service; SCIM grants memberships through the same worker.
  exports: [JoiningService, MembershipGrantsWorker, MembershipGrantsRepository],
})
export class JoiningModule {}

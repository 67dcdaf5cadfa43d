import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { IdentityStore, PoolMemberships } from '../identity/identity-store';
import { InvitationsModule } from '../invitations/invitations.module';
import { JoiningController } from './joining.controller';
import { JoiningService } from './joining.service';
import { LocalMembershipBackend, MembershipBackend, PoolMembershipBackend } from './membership-backend';
import { MembershipGrantsRepository } from './membership-grants.repository';
import { MembershipGrantsWorker } from './membership-grants.worker';
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
      // A user pool's memberships are written by the grants; null for a store whose users rows the join's transaction writes.
      provide: PoolMemberships,
      inject: [IdentityStore],
      useFactory: (identity: IdentityStore) => identity.poolMemberships(),
    },
    {
      provide: MembershipBackend,
      inject: [IdentityStore, PoolMemberships, MembershipGrantsRepository, MembershipGrantsWorker],
      useFactory: (
        identity: IdentityStore,
        pool: PoolMemberships | null,
        grants: MembershipGrantsRepository,
        worker: MembershipGrantsWorker,
      ): MembershipBackend =>
        pool ? new PoolMembershipBackend(identity, grants, worker) : new LocalMembershipBackend(identity),
    },
  ],
  // The invitation page joins through the same service; SCIM grants memberships through the same worker.
  exports: [JoiningService, MembershipGrantsWorker, MembershipGrantsRepository],
})
export class JoiningModule {}

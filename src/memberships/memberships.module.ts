import { Global, Module } from '@nestjs/common';
import { MembershipRemovalsStore } from './membership-removals.store';

/** Removals kept as facts, for every path that ends a membership and every rule that asks about one. */
@Global()
@Module({
  providers: [MembershipRemovalsStore],
  exports: [MembershipRemovalsStore],
})
export class MembershipsModule {}

import { Global, Module } from '@nestjs/common';
import { GrantsStore } from './grants.store';
import { MemberPermissions } from './member-permissions';
import { ProductCatalogue } from './product-catalogue';

/**
 * The reads of custom roles and permissions, for the whole app: the org guard's, the lists', the
 * invitations' and the removals'. The roles' own routes and writes are the roles module's.
 */
@Global()
@Module({
  providers: [GrantsStore, ProductCatalogue, MemberPermissions],
  exports: [GrantsStore, ProductCatalogue, MemberPermissions],
})
export class PermissionsModule {}

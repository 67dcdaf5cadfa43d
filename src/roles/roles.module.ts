import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { MemberRolesService } from './member-roles.service';
import { OrgRolesService } from './org-roles.service';
import { PermissionCatalogueService } from './permission-catalogue.service';
import { MemberRolesController, OrgRolesController, PermissionsController } from './roles.controller';
import { RolesStore } from './roles.store';

/** Custom roles and permissions (docs/roles.md): the routes and the writes; the reads are PermissionsModule's. */
@Module({
  imports: [AuditModule],
  controllers: [OrgRolesController, MemberRolesController, PermissionsController],
  providers: [OrgRolesService, MemberRolesService, PermissionCatalogueService, RolesStore],
  // SCIM's roles from groups write members' custom roles through the same store.
  exports: [RolesStore],
})
export class RolesModule {}

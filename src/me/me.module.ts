import { Module } from '@nestjs/common';
import { AdminTenantsModule } from '../admin-tenants/admin-tenants.module';
import { DomainsModule } from '../domains/domains.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { MeController } from './me.controller';
import { MeService } from './me.service';

/** The signed-in person's routes (/api/me): who they are, their invitations, the organisations their domain lets them join. */
@Module({
  imports: [AdminTenantsModule, InvitationsModule, DomainsModule],
  controllers: [MeController],
  providers: [MeService],
})
export class MeModule {}

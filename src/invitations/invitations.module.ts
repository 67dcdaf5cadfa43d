import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InvitationEntity, TenantEntity } from '../database/entities';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { InvitationsStore } from './invitations.store';

@Module({
  imports: [TypeOrmModule.forFeature([InvitationEntity, TenantEntity])],
  controllers: [InvitationsController],
  providers: [InvitationsService, InvitationsStore],
  // The invitation page (src/invitation-page) reads and accepts through the same service.
  exports: [InvitationsService, InvitationsStore],
})
export class InvitationsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InvitationEntity, TenantEntity } from '../database/entities';
import { MailModule } from '../mail/mail.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { OrgMembersController } from './org-members.controller';
import { OrgMembersService } from './org-members.service';

@Module({
  imports: [TypeOrmModule.forFeature([InvitationEntity, TenantEntity]), MailModule, RateLimitModule],
  controllers: [OrgMembersController],
  providers: [OrgMembersService],
})
export class OrgMembersModule {}

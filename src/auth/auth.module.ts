import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { OrgAdminGuard } from './org-admin.guard';
import { SessionTokenIssuer } from './session-token-issuer';
import { SessionGuard } from './session.guard';
import { SessionStrategy } from './session.strategy';
import { SuperAdminGuard } from './super-admin.guard';

@Global()
@Module({
  imports: [PassportModule],
  providers: [SessionStrategy, SessionGuard, SuperAdminGuard, OrgAdminGuard, SessionTokenIssuer],
  exports: [SessionGuard, SuperAdminGuard, OrgAdminGuard, SessionTokenIssuer],
})
export class AuthModule {}

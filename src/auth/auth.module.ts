import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { OrgAdminGuard } from './org-admin.guard';
import { SessionCheck } from './session-check';
import { SessionTokenIssuer } from './session-token-issuer';
import { SessionsStore } from './sessions.store';
import { SessionGuard } from './session.guard';
import { SessionStrategy } from './session.strategy';
import { SuperAdminGuard } from './super-admin.guard';

@Global()
@Module({
  imports: [PassportModule],
  providers: [
    SessionStrategy,
    SessionGuard,
    SuperAdminGuard,
    OrgAdminGuard,
    SessionTokenIssuer,
    SessionsStore,
    SessionCheck,
  ],
  exports: [SessionGuard, SuperAdminGuard, OrgAdminGuard, SessionTokenIssuer, SessionsStore, SessionCheck],
})
export class AuthModule {}

import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from '../database/entities';
import { IdentityStore } from './identity-store';
import { LocalIdentityStore } from './local/local-identity-store';

/** Provides the IdentityStore chosen by IDENTITY_STORE. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  providers: [LocalIdentityStore, { provide: IdentityStore, useExisting: LocalIdentityStore }],
  exports: [IdentityStore],
})
export class IdentityModule {}

import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { UserEntity } from '../database/entities';
import { CognitoIdentityStore, createCognitoClient } from './cognito/cognito-identity-store';
import { IdentityStore } from './identity-store';
import { LocalIdentityStore } from './local/local-identity-store';

/**
 * Provides the IdentityStore chosen by IDENTITY_STORE. The `users` repository is made only in
 * local mode: Cognito mode never touches that table.
 */
@Global()
@Module({
  providers: [
    {
      provide: IdentityStore,
      inject: [AppConfig, DataSource],
      useFactory: (config: AppConfig, dataSource: DataSource): IdentityStore =>
        config.identityStore === 'cognito'
          ? new CognitoIdentityStore(createCognitoClient(config.cognito), config.cognito)
          : new LocalIdentityStore(dataSource.getRepository(UserEntity)),
    },
  ],
  exports: [IdentityStore],
})
export class IdentityModule {}

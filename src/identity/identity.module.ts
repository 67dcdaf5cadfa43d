import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { userPoolOf } from '../config/identity-config';
import { UserEntity } from '../database/entities';
import { PreparedStatements } from '../database/prepared-statements';
import { IdentityStore } from './identity-store';
import { LocalIdentityStore } from './local/local-identity-store';

/**
 * Provides the IdentityStore chosen by IDENTITY_STORE. The `users` repository is made only in
 * local mode: Cognito mode never touches that table. The Cognito adapter, and with it the AWS SDK
 * (some 20 MB of memory), is loaded only in Cognito mode.
 */
@Global()
@Module({
  providers: [
    {
      provide: IdentityStore,
      inject: [AppConfig, DataSource, PreparedStatements],
      useFactory: async (
        config: AppConfig,
        dataSource: DataSource,
        statements: PreparedStatements,
      ): Promise<IdentityStore> => {
        const pool = userPoolOf(config);
        if (!pool) return new LocalIdentityStore(dataSource.getRepository(UserEntity), statements);
        const { CognitoIdentityStore } = await import('./cognito/cognito-identity-store');
        const { createCognitoClient } = await import('./cognito/cognito-pool');
        return new CognitoIdentityStore(createCognitoClient(pool), pool);
      },
    },
  ],
  exports: [IdentityStore],
})
export class IdentityModule {}

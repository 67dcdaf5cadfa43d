import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { CommonModule } from '../common/common.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { UserEntity } from '../database/entities';
import { IdentityModule } from '../identity/identity.module';
import { LocalUsersService } from './local-users.service';

@Module({
  imports: [
    ConfigModule,
    CommonModule,
    DatabaseModule,
    IdentityModule,
    AuthModule,
    TypeOrmModule.forFeature([UserEntity]),
  ],
  providers: [LocalUsersService],
})
export class CliModule {}

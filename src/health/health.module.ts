import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { IdentityStoreHealthIndicator } from './identity-store.health';
import { MigrationsHealthIndicator } from './migrations.health';
import { RedisHealthIndicator } from './redis.health';
import { ShutdownState } from './shutdown-state';

@Module({
  imports: [TerminusModule],
  controllers: [HealthController],
  providers: [ShutdownState, RedisHealthIndicator, IdentityStoreHealthIndicator, MigrationsHealthIndicator],
  exports: [ShutdownState],
})
export class HealthModule {}

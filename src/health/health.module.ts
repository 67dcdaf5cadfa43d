import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { IdentityStoreHealthIndicator } from './identity-store.health';
import { MigrationsHealthIndicator } from './migrations.health';
import { ReadinessLog } from './readiness-log';
import { RedisHealthIndicator } from './redis.health';
import { ShutdownState } from './shutdown-state';

@Module({
  // ReadinessLog logs failures at the level their cause deserves, instead of terminus at error on every probe.
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [
    ShutdownState,
    RedisHealthIndicator,
    IdentityStoreHealthIndicator,
    MigrationsHealthIndicator,
    ReadinessLog,
  ],
  exports: [ShutdownState],
})
export class HealthModule {}

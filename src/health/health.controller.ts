import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { AppConfig } from '../config/app-config';
import { ApiOperationalRoute } from '../common/openapi';
import { ApiLiveness, ApiReadiness } from './health.docs';
import { IdentityStoreHealthIndicator } from './identity-store.health';
import { MigrationsHealthIndicator } from './migrations.health';
import { ReadinessLog } from './readiness-log';
import { RedisHealthIndicator } from './redis.health';
import { ShutdownState } from './shutdown-state';

export const DATABASE_PING_TIMEOUT_MS = 1_500;

/**
 * Probes for the load balancer and the orchestrator: outside /api, no session, and answered
 * whatever the Host header (see configureApp). Bodies are terminus's.
 */
@ApiOperationalRoute()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly identityStore: IdentityStoreHealthIndicator,
    private readonly migrations: MigrationsHealthIndicator,
    private readonly shutdown: ShutdownState,
    private readonly config: AppConfig,
    private readonly log: ReadinessLog,
  ) {}

  /** The process is up and answering. Nothing else: a slow dependency must never get it restarted. */
  @Get('live')
  @ApiLiveness()
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  checkLiveness() {
    return this.health.check([]);
  }

  /**
   * Whether to send this instance traffic: 503 while shutting down, while migrations are pending,
   * or when a dependency it cannot do without fails.
   */
  @Get('ready')
  @ApiReadiness()
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  async checkReadiness() {
    if (this.shutdown.isShuttingDown) {
      throw new ServiceUnavailableException({ status: 'shutting_down', info: {}, error: {}, details: {} });
    }
    const checks: HealthIndicatorFunction[] = [
      () => this.database.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS }),
    ];
    // Run at start-up otherwise (DB_MIGRATIONS_RUN): then none can be pending.
    if (!this.config.migrationsRun) checks.push(() => this.migrations.check('migrations'));
    if (this.redis.configured) checks.push(() => this.redis.check('redis'));
    if (this.identityStore.needed) checks.push(() => this.identityStore.check('identityStore'));
    try {
      const result = await this.health.check(checks);
      this.log.ready();
      return result;
    } catch (error) {
      if (error instanceof ServiceUnavailableException)
        this.log.notReady((error.getResponse() as HealthCheckResult).error ?? {});
      throw error;
    }
  }
}

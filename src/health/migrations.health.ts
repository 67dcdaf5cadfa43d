import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource, MigrationExecutor } from 'typeorm';
import { publicFailureMessage, withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';

export const MIGRATIONS_CHECK_TIMEOUT_MS = 1_500;

/**
 * With DB_MIGRATIONS_RUN=false an instance may start on a database that the deploy has not
 * migrated yet; it would then answer misleading 403s and 404s. While any migration of this
 * release is pending, readiness fails and says so. Once none is, that stays true (migrations
 * only ever get applied), so the check stops querying.
 */
@Injectable()
export class MigrationsHealthIndicator implements OnApplicationBootstrap {
  private readonly logger = new Logger('Migrations');
  private upToDate: boolean;

  constructor(
    private readonly dataSource: DataSource,
    private readonly indicator: HealthIndicatorService,
    config: AppConfig,
  ) {
    // Applied at start-up otherwise: initialisation failed if they could not be.
    this.upToDate = config.migrationsRun;
  }

  async onApplicationBootstrap(): Promise<void> {
    const pending = await this.pending().catch(() => []); // an unreachable database is the database check's to report
    if (pending.length) {
      // A step of every deploy that migrates apart (docs/deploying.md), not a fault: no alert should fire.
      this.logger.warn(
        `${pending.length} database migration(s) pending (${pending.join(', ')}) and DB_MIGRATIONS_RUN=false: ` +
          'readiness fails until `npm run migration:run` applies them',
      );
    }
  }

  async check(key: string) {
    const indicator = this.indicator.check(key);
    try {
      const pending = await withTimeout(this.pending(), MIGRATIONS_CHECK_TIMEOUT_MS);
      if (pending.length === 0) return indicator.up();
      return indicator.down({ message: `${pending.length} migration(s) pending: run npm run migration:run`, pending });
    } catch (error) {
      return indicator.down({ message: publicFailureMessage(error) });
    }
  }

  private async pending(): Promise<string[]> {
    if (this.upToDate) return [];
    const pending = (await new MigrationExecutor(this.dataSource).getPendingMigrations()).map(
      (migration) => migration.name,
    );
    this.upToDate = pending.length === 0;
    return pending;
  }
}

import { Injectable, Logger } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';

/**
 * Readiness failures in the log, once each time the set of failing checks changes (not once per
 * probe, which comes every few seconds). Migrations still pending are a step of every deploy with
 * DB_MIGRATIONS_RUN=false, which the start-up warning already names: `warn`, so that no alert
 * fires on a normal deploy. A dependency that fails (the database, Cognito) is `error`. A drain
 * logs nothing here: the shutdown's own lines say that readiness fails from then on.
 */
@Injectable()
export class ReadinessLog {
  private readonly logger = new Logger('Readiness');
  private failing = '';

  ready(): void {
    if (!this.failing) return;
    this.failing = '';
    this.logger.log('Ready again');
  }

  notReady(failed: Partial<HealthIndicatorResult>): void {
    const names = Object.keys(failed);
    const failing = names
      .map((name) => {
        const { message } = failed[name] as { message?: unknown };
        return typeof message === 'string' ? `${name} (${message})` : name;
      })
      .join(', ');
    if (failing === this.failing) return;
    this.failing = failing;
    const line = `Not ready: ${failing}`;
    if (names.every((name) => name === 'migrations')) this.logger.warn(line);
    else this.logger.error(line);
  }
}

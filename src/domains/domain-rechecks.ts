import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/clock';
import { PeriodicTask } from '../common/periodic-task';
import { AppConfig } from '../config/app-config';
import { DnsUnavailableError } from './dns-txt-lookup';
import { nextCheckTime } from './domain-verification';
import { DomainsService } from './domains.service';
import { DomainsStore } from './domains.store';

/** Checks claimed per round; a full round is followed by another at once. */
export const RECHECK_BATCH = 20;

/**
 * Re-checks verified and failing domains every DOMAIN_RECHECK_SECONDS (docs/domains.md). Every
 * instance looks for due checks; each check is claimed by a conditional UPDATE of its
 * `next_check_at`, so that one instance does it, whatever the number of instances. A resolver
 * that fails leaves the claim as it was until its next check.
 */
@Injectable()
export class DomainRechecks implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DomainRechecks.name);
  private readonly task = new PeriodicTask(
    () => this.recheckDue().then(() => undefined),
    (error) => this.logger.error(`Domain re-check round failed: ${(error as Error).message}`),
  );

  constructor(
    private readonly store: DomainsStore,
    private readonly domains: DomainsService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = Math.min(this.config.domains.recheckSeconds, 60) * 1000;
    this.task.start(everyMs, everyMs);
  }

  onApplicationShutdown(): void {
    this.task.stop();
  }

  /** One round: the checks that are due, claimed and done; how many this instance did. */
  async recheckDue(): Promise<number> {
    let done = 0;
    for (;;) {
      const now = this.clock.now();
      const next = nextCheckTime(now, this.config.domains);
      const claimed = await this.store.claimDue(now, next, RECHECK_BATCH);
      for (const domain of claimed) {
        try {
          const result = await this.domains.check(domain);
          const outcome = this.domains.outcome(domain, result, this.clock.now(), null);
          await this.store.update(domain, outcome.changes, outcome.events);
          done++;
        } catch (error) {
          if (!(error instanceof DnsUnavailableError)) throw error;
          this.logger.warn(`Re-checking ${domain.name}: ${error.message}; tried again at its next check`);
        }
      }
      if (claimed.length < RECHECK_BATCH) return done;
    }
  }
}

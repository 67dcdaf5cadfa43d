import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { messageOf } from '../../common/api-error';
import { Clock } from '../../common/clock';
import { PeriodicTask } from '../../common/periodic-task';
import { SsoConnectionsStore } from '../sso-connections.store';
import { connectionEvent } from '../sso-events';
import { IdpMetadata } from './saml-metadata';

const DAY_MS = 24 * 60 * 60 * 1_000;
/** How long before its last certificate expires a connection's owners are told. */
export const CERTIFICATE_WARNING_DAYS = 30;
/** The first check waits until start-up is over. */
const FIRST_CHECK_AFTER_MS = 60 * 1_000;

/**
 * `sso.certificate_expiring` (docs/sso.md, "Certificates"): once a day, each SAML connection whose
 * last valid signing certificate expires within 30 days is warned about, once for that certificate
 * (a webhook can page its owners before sign-in breaks). Every instance checks; the compare-and-set
 * on the connection's row lets one event through, whichever instance writes first.
 */
@Injectable()
export class CertificateExpiryWarnings implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SingleSignOn');
  private readonly daily = new PeriodicTask(
    async () => {
      const warned = await this.check();
      if (warned) this.logger.warn(`${warned} SAML connection(s) have a last certificate that expires within 30 days`);
    },
    (error) => this.logger.error(`Checking SAML certificates failed: ${messageOf(error)}`),
  );

  constructor(
    private readonly connections: SsoConnectionsStore,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.daily.start(FIRST_CHECK_AFTER_MS, DAY_MS);
  }

  onApplicationShutdown(): void {
    this.daily.stop();
  }

  /** Warns of each connection whose last certificate expires soon and was not warned of; how many it warned. */
  async check(): Promise<number> {
    const now = this.clock.now().getTime();
    let warned = 0;
    for (const connection of await this.connections.samlConnections()) {
      const { certificates } = JSON.parse(connection.discovery) as IdpMetadata;
      const last = certificates.reduce((latest, c) => (c.notAfter > latest.notAfter ? c : latest), certificates[0]);
      const notAfter = new Date(last.notAfter);
      const daysLeft = Math.floor((notAfter.getTime() - now) / DAY_MS);
      if (daysLeft > CERTIFICATE_WARNING_DAYS || connection.expiryWarnedFor?.getTime() === notAfter.getTime()) continue;
      const event = connectionEvent('sso.certificate_expiring', connection, null, {
        notAfter: last.notAfter,
        fingerprint: last.fingerprint,
        daysLeft: Math.max(daysLeft, 0),
      });
      if (await this.connections.warnCertificateExpiry(connection, notAfter, [event])) warned++;
    }
    return warned;
  }
}

import { HttpStatus, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { auditActor } from '../audit/audit-event';
import { OrgCaller } from '../auth/caller';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { PeriodicTask } from '../common/periodic-task';
import { AppConfig } from '../config/app-config';
import { SetupLinkEntity } from '../database/entities/setup-link.entity';
import { CreateSetupLinkBody, DEFAULT_EXPIRES_IN_HOURS } from './dto/setup-link-bodies';
import { CreatedSetupLinkAnswer, SetupLinkListResponse, SetupLinkResponse } from './dto/setup-link.response';
import {
  hashLinkToken,
  intentsOf,
  linkStatus,
  newLinkToken,
  setupLinkUrl,
  storedIntents,
  testModeLinkToken,
} from './setup-link';
import { setupLinkEvents } from './setup-link-events';
import { SetupLinkMail } from './setup-link-mail';
import { SetupLinksStore } from './setup-links.store';
import { SETUP_ERRORS, SETUP_REASONS, setupRefusal } from './setup-links.messages';

const HOUR_MS = 3_600_000;
/** How often each instance records the expiries that nothing else noticed (the first run a minute after start-up). */
const EXPIRY_SWEEP_EVERY_MS = 10 * 60_000;
const EXPIRY_SWEEP_BATCH = 100;

/**
 * The owners' side of setup links (docs/setup-links.md): make one (the token shown once, its hash
 * kept), list them, revoke one; and the once-per-link `setup_link.expired` event, written by
 * whichever sees the expiry first (a listing, an opening, the sweep), as a compare-and-set.
 */
@Injectable()
export class SetupLinksService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SetupLinksService.name);
  private readonly sweep = new PeriodicTask(
    async () => {
      const count = await this.recordExpiries();
      if (count) this.logger.log(`Recorded the expiry of ${count} setup links`);
    },
    (error) => this.logger.error(`Recording setup links' expiries failed: ${messageOf(error)}`),
  );

  constructor(
    private readonly store: SetupLinksStore,
    private readonly mail: SetupLinkMail,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  onApplicationBootstrap(): void {
    this.sweep.start(60_000, EXPIRY_SWEEP_EVERY_MS);
  }

  onApplicationShutdown(): void {
    this.sweep.stop();
  }

  /** POST /api/org/setup-links: at most SETUP_LINKS_PER_ORG open; with `email`, the link is e-mailed through the outbox. */
  async create(caller: OrgCaller, body: CreateSetupLinkBody, base: string): Promise<CreatedSetupLinkAnswer> {
    const { perOrg } = this.config.setupLinks;
    const now = this.clock.now();
    const id = this.ids.uuid();
    const token = this.tokenFor(id);
    const link: SetupLinkEntity = {
      id,
      tenantId: caller.tenantId,
      tokenHash: hashLinkToken(token),
      intents: storedIntents(body.intents),
      email: body.email ?? null,
      createdBy: caller.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + (body.expiresInHours ?? DEFAULT_EXPIRES_IN_HOURS) * HOUR_MS),
      lastOpenedAt: null,
      completedAt: null,
      revokedAt: null,
      expiryRecordedAt: null,
    };
    const url = setupLinkUrl(base, token);
    const mail = await this.mail.linkRows(link, url, token, caller);
    if (!(await this.store.insert(link, [setupLinkEvents.created(link, auditActor(caller))], mail, perOrg)))
      throw setupRefusal(HttpStatus.UNPROCESSABLE_ENTITY, SETUP_ERRORS.limit, SETUP_REASONS.limit(perOrg));
    if (mail.length) this.mail.kick();
    return { success: true, link: { ...answer(link, now), url } };
  }

  /** GET /api/org/setup-links: newest first; an expiry seen here is recorded. */
  async list(caller: OrgCaller): Promise<SetupLinkListResponse> {
    const now = this.clock.now();
    const links = await this.store.listOwn(caller.tenantId);
    await Promise.all(links.map((link) => this.noteExpiry(link, now)));
    return { links: links.map((link) => answer(link, now)) };
  }

  /** DELETE /api/org/setup-links/{id}: 204; a link that is no longer open is 409 SETUP_LINK_CLOSED. */
  async revoke(caller: OrgCaller, id: string): Promise<void> {
    const link = await this.store.findOwn(caller.tenantId, id);
    if (!link) throw setupRefusal(HttpStatus.NOT_FOUND, SETUP_ERRORS.notFound, SETUP_REASONS.notFound);
    const now = this.clock.now();
    if (!(await this.store.revoke(link, now, [setupLinkEvents.revoked(link, auditActor(caller))]))) {
      await this.noteExpiry(link, now);
      throw setupRefusal(HttpStatus.CONFLICT, SETUP_ERRORS.closed, SETUP_REASONS.closed);
    }
  }

  /** The token of link `id`: random; in test mode derived from TEST_MODE_KEY (testModeLinkToken). */
  tokenFor(id: string): string {
    const { enabled, key } = this.config.testMode;
    return enabled && key ? testModeLinkToken(key, id) : newLinkToken();
  }

  /** Its `setup_link.expired` event, once, when the link is past its time and was neither completed nor revoked. */
  async noteExpiry(link: SetupLinkEntity, now = this.clock.now()): Promise<void> {
    if (linkStatus(link, now) !== 'expired' || link.expiryRecordedAt) return;
    await this.store.recordExpiry(link, now, [setupLinkEvents.expired(link)]);
  }

  /** The sweep: every expiry not yet recorded, in batches. */
  async recordExpiries(): Promise<number> {
    const now = this.clock.now();
    let count = 0;
    for (;;) {
      const links = await this.store.expiredUnrecorded(now, EXPIRY_SWEEP_BATCH);
      for (const link of links)
        if (await this.store.recordExpiry(link, now, [setupLinkEvents.expired(link)])) count += 1;
      if (links.length < EXPIRY_SWEEP_BATCH) return count;
    }
  }
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function answer(link: SetupLinkEntity, now: Date): SetupLinkResponse {
  return {
    id: link.id,
    intents: intentsOf(link),
    status: linkStatus(link, now),
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    createdBy: link.createdBy,
    lastOpenedAt: iso(link.lastOpenedAt),
    completedAt: iso(link.completedAt),
    revokedAt: iso(link.revokedAt),
    email: link.email,
  };
}

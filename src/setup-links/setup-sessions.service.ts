import { Injectable } from '@nestjs/common';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { SetupIntent } from '../database/entities/setup-link.entity';
import { TenantStatus } from '../database/entities/tenant.entity';
import { CLOSED_TENANT_STATUSES } from '../database/tenant-status-reader';
import {
  hashLinkToken,
  intentsOf,
  isSessionOf,
  isTokenShaped,
  linkStatus,
  sessionLinkId,
  sessionMaxAge,
  setupSessionCookie,
  setupSessionValue,
} from './setup-link';
import { linkActor, setupLinkEvents } from './setup-link-events';
import { SetupLinksService } from './setup-links.service';
import { SetupLinksStore, SetupLinkWithTenant } from './setup-links.store';

/** What an opening of `/setup/{token}` comes to: a session's cookie, or why the link does not open. */
export type LinkOpening =
  { kind: 'opened'; cookie: string } | { kind: 'invalid' | 'expired' | 'revoked' | 'completed' | 'suspended' };

/** The browser that opens a link. */
export interface LinkVisitor {
  secure: boolean;
  ip: string | null;
}

/** A request's setup session: its link, as read now, and the caller that acts through it. */
export interface SetupSession {
  link: SetupLinkWithTenant;
  intents: SetupIntent[];
  caller: OrgCaller;
}

/**
 * Opening a setup link and the setup session it sets (docs/setup-links.md): the session's cookie
 * names the link and is signed; every request reads the link's row, so that a revocation, a
 * completion or a suspension holds from the next request on every instance.
 */
@Injectable()
export class SetupSessionsService {
  constructor(
    private readonly store: SetupLinksStore,
    private readonly links: SetupLinksService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** GET /setup/{token}: each opening is a `setup_link.opened` event with the client's address. */
  async open(token: string, visitor: LinkVisitor): Promise<LinkOpening> {
    const link = isTokenShaped(token) ? await this.store.findByTokenHash(hashLinkToken(token)) : null;
    if (!link || link.tenantStatus === null || link.tenantStatus === 'deleted') return { kind: 'invalid' };
    // A suspended organisation's link says so only once the link itself would open.
    const now = this.clock.now();
    const status = linkStatus(link, now);
    if (status === 'expired') await this.links.noteExpiry(link, now);
    if (status !== 'open') return { kind: status };
    if (link.tenantStatus === 'suspended') return { kind: 'suspended' };
    if (!(await this.store.opened(link, now, [setupLinkEvents.opened(link, visitor.ip)])))
      return this.open(token, visitor);
    const value = setupSessionValue(this.config.authJwtSecret, link);
    return { kind: 'opened', cookie: setupSessionCookie(value, sessionMaxAge(link, now), visitor.secure) };
  }

  /** The session a cookie's value carries, while its link is open and its organisation active; else null. */
  async sessionOf(value: string): Promise<SetupSession | null> {
    const linkId = sessionLinkId(value);
    const link = linkId ? await this.store.findById(linkId) : null;
    const now = this.clock.now();
    if (!link || !isSessionOf(this.config.authJwtSecret, value, link, now)) return null;
    if (linkStatus(link, now) !== 'open' || !isOpen(link.tenantStatus)) return null;
    // The org routes' services take it as their caller: the link, with no role of its own.
    const caller = { id: linkActor(link.id).id, email: null, userType: 'org', tenantId: link.tenantId, role: null };
    return { link, intents: intentsOf(link), caller: { ...caller, setupLink: link.id } };
  }
}

/** An organisation whose people may act: neither suspended nor deleted, nor gone. */
const isOpen = (status: TenantStatus | null): boolean => status !== null && !CLOSED_TENANT_STATUSES.includes(status);

import { HttpStatus, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { SetupItemKind } from '../database/entities/setup-link.entity';
import { normaliseDomain } from '../domains/domain-name';
import { DomainsService } from '../domains/domains.service';
import { DomainsStore } from '../domains/domains.store';
import { AddDomainBody } from '../domains/dto/domain-bodies';
import { CreateConnectionBody } from '../sso/dto/sso-bodies';
import { SsoConnectionsService } from '../sso/sso-connections.service';
import { SETUP_ERRORS, SETUP_REASONS, setupRefusal } from './setup-links.messages';
import { SetupLinksStore } from './setup-links.store';
import { SetupSession } from './setup-sessions.service';

/**
 * The changes a setup session makes (docs/setup-links.md) through the org routes' own services, with
 * the link as the caller (its events say `via: {"setupLink": id}`), and the link's limits on them: what
 * it makes is recorded as its own; it changes and removes only what it made; it never switches a
 * connection on or makes one primary (a test sign-in activates it).
 */
@Injectable()
export class SetupStepsService {
  constructor(
    private readonly store: SetupLinksStore,
    private readonly domains: DomainsService,
    private readonly domainClaims: DomainsStore,
    private readonly sso: SsoConnectionsService,
    private readonly clock: Clock,
  ) {}

  /** POST /api/setup/domains: POST /api/org/domains', the claim then the link's. */
  async addDomain({ link, caller }: SetupSession, body: AddDomainBody) {
    const answer = await this.domains.add(caller, body);
    const claim = await this.domainClaims.findOwn(caller.tenantId, answer.domain.name);
    if (claim) await this.made(link, 'domain', claim.id);
    return answer;
  }

  /** DELETE /api/setup/domains/{name}: DELETE /api/org/domains/{name}'s, for a claim the link made. */
  async removeDomain({ link, caller }: SetupSession, name: string) {
    const normalised = normaliseDomain(name);
    const claim = normalised && (await this.domainClaims.findOwn(caller.tenantId, normalised));
    if (claim) await this.ownOnly(link.id, 'domain', claim.id, 'domain');
    return this.domains.remove(caller, name);
  }

  /** POST /api/setup/sso/connections: a draft, which only a successful test sign-in activates. */
  async createConnection({ link, caller }: SetupSession, body: CreateConnectionBody, base: string) {
    const answer = await this.sso.create(caller, body, base);
    await this.made(link, 'sso_connection', answer.connection.id);
    return answer;
  }

  /** PATCH /api/setup/sso/connections/{id}: PATCH's settings, of a connection the link made; never `status` nor `primary`. */
  async updateConnection({ link, caller }: SetupSession, id: string, body: unknown, base: string) {
    await this.sso.get(caller, id, base);
    await this.ownOnly(link.id, 'sso_connection', id, 'connection');
    if (isObject(body) && body.status !== undefined)
      throw setupRefusal(HttpStatus.FORBIDDEN, SETUP_ERRORS.notAllowed, SETUP_REASONS.activate);
    if (isObject(body) && body.primary !== undefined)
      throw setupRefusal(HttpStatus.FORBIDDEN, SETUP_ERRORS.notAllowed, SETUP_REASONS.primary);
    return this.sso.update(caller, id, body, base);
  }

  /** DELETE /api/setup/sso/connections/{id}: 204, for a connection the link made. */
  async removeConnection({ link, caller }: SetupSession, id: string, base: string) {
    await this.sso.get(caller, id, base);
    await this.ownOnly(link.id, 'sso_connection', id, 'connection');
    await this.sso.remove(caller, id);
  }

  /** Recorded after the change it names: the org route's service wrote that with its events. */
  private async made(link: SetupSession['link'], kind: SetupItemKind, itemId: string): Promise<void> {
    await this.store.addItem({ kind, itemId, linkId: link.id, tenantId: link.tenantId, createdAt: this.clock.now() });
  }

  /** 403 SETUP_ACTION_NOT_ALLOWED unless this link made the item. */
  private async ownOnly(linkId: string, kind: SetupItemKind, itemId: string, what: string): Promise<void> {
    if ((await this.store.madeBy(kind, itemId)) !== linkId)
      throw setupRefusal(HttpStatus.FORBIDDEN, SETUP_ERRORS.notAllowed, SETUP_REASONS.notMadeHere(what));
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

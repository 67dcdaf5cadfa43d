import { HttpStatus, Injectable } from '@nestjs/common';
import { auditActor, auditEvents } from '../audit/audit-event';
import { Caller } from '../auth/caller';
import { Clock } from '../common/clock';
import { OrgDomainEntity } from '../database/entities';
import { domainRefusal } from './domain-errors';
import { normaliseDomain } from './domain-name';
import { RELEASE } from './domain-verification';
import { DomainsStore } from './domains.store';
import { ReleaseDomainBody } from './dto/domain-bodies';
import { DOMAIN_ERRORS } from './domains.messages';
import { AdminDomainResponse, AdminDomainsResponse, ReleasedDomainResponse } from './dto/domain.response';

const toAdminResponse = (domain: OrgDomainEntity): AdminDomainResponse => ({
  tenantId: domain.tenantId,
  name: domain.name,
  status: domain.status,
  verifiedAt: domain.verifiedAt?.toISOString() ?? null,
  createdAt: domain.createdAt.toISOString(),
});

/** The operators' side: the claims of a name across organisations, and the release of a wrong one. */
@Injectable()
export class AdminDomainsService {
  constructor(
    private readonly store: DomainsStore,
    private readonly clock: Clock,
  ) {}

  async list(name: unknown): Promise<AdminDomainsResponse> {
    if (typeof name !== 'string' || name.trim() === '')
      throw domainRefusal(HttpStatus.BAD_REQUEST, DOMAIN_ERRORS.nameRequired);
    const normalised = normaliseDomain(name);
    if (!normalised) throw domainRefusal(HttpStatus.BAD_REQUEST, DOMAIN_ERRORS.invalid);
    return { domains: (await this.store.listByName(normalised)).map(toAdminResponse) };
  }

  /** The organisation's claim becomes lapsed: it no longer holds the name; audited with the reason. */
  async release(
    caller: Caller,
    name: string,
    { tenantId, reason }: ReleaseDomainBody,
  ): Promise<ReleasedDomainResponse> {
    const normalised = normaliseDomain(name);
    const domain = normalised && (await this.store.findOwn(tenantId, normalised));
    if (!domain) throw domainRefusal(HttpStatus.NOT_FOUND, DOMAIN_ERRORS.notFound);
    const event = auditEvents.aboutDomain('domain.released', domain, auditActor(caller), {
      reason: reason.trim(),
      statusBefore: domain.status,
    });
    const released = await this.store.update(domain, RELEASE, [event]);
    if (!released) throw domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.requestClosed);
    return { success: true, domain: toAdminResponse((await this.store.findById(domain.id))!) };
  }
}

import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuditActor, auditActor, auditEvents, NewAuditEvent } from '../audit/audit-event';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { OrgDomainEntity } from '../database/entities';
import { IdentityStore, MAX_PAGE_SIZE } from '../identity/identity-store';
import { GrantsStore } from '../permissions/grants.store';
import { MemberPermissions } from '../permissions/member-permissions';
import { retryWhileChanged } from '../roles/retry-while-changed';
import { DnsTxtLookup, DnsUnavailableError } from './dns-txt-lookup';
import { domainRefusal } from './domain-errors';
import { emailDomain, normaliseDomain, ProviderList } from './domain-name';
import {
  canRotate,
  checkTransition,
  judgeRecords,
  recordName,
  recordValue,
  rotation,
  shownStatus,
  verificationWindowEnd,
  verifyRefusal,
} from './domain-verification';
import { isUniqueViolation } from '../database/unique-violation';
import { DomainChanges, DomainsStore } from './domains.store';
import { DOMAIN_ERRORS } from './domains.messages';
import { AddDomainBody, UpdateDomainBody, validateDomainBody } from './dto/domain-bodies';
import {
  CheckResult,
  DomainAnswer,
  DomainResponse,
  ListDomainsResponse,
  OneDomainResponse,
  RemoveDomainResponse,
} from './dto/domain.response';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** What a check changes on a claim, and the events it records. */
export interface CheckOutcome {
  changes: DomainChanges;
  events: NewAuditEvent[];
}

/**
 * An organisation's claims on its e-mail domains (docs/domains.md): claimed, proven by a DNS TXT
 * record, re-checked, given a join mode, removed; and the join requests that they bring.
 */
@Injectable()
export class DomainsService {
  private readonly logger = new Logger(DomainsService.name);
  private readonly providers: ProviderList;

  constructor(
    private readonly store: DomainsStore,
    private readonly dns: DnsTxtLookup,
    private readonly identity: IdentityStore,
    private readonly permissions: MemberPermissions,
    private readonly grants: GrantsStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
  ) {
    this.providers = new ProviderList(config.domains);
  }

  private toResponse(domain: OrgDomainEntity, defaultRoles: string[], now = this.clock.now()): DomainResponse {
    return {
      name: domain.name,
      status: shownStatus(domain, now, this.config.domains),
      joinMode: domain.joinMode,
      defaultRoles,
      verification: {
        recordName: recordName(domain.name),
        recordValue: recordValue(domain.token),
        expiresAt: verificationWindowEnd(domain, this.config.domains).toISOString(),
      },
      lastCheck:
        domain.lastCheckAt && domain.lastCheckResult
          ? { at: domain.lastCheckAt.toISOString(), result: domain.lastCheckResult }
          : null,
      verifiedAt: iso(domain.verifiedAt),
      graceEndsAt: iso(domain.graceEndsAt),
      createdAt: domain.createdAt.toISOString(),
    };
  }

  /** POST /api/org/domains. */
  async add(caller: OrgCaller, { domain: name }: AddDomainBody): Promise<DomainAnswer> {
    const refusal = this.providers.refusal(name);
    if (refusal) throw domainRefusal(HttpStatus.UNPROCESSABLE_ENTITY, refusal);
    const alreadyAdded = domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.alreadyAdded);
    if (await this.store.findOwn(caller.tenantId, name)) throw alreadyAdded;
    if (await this.store.heldByAnother(name, caller.tenantId))
      throw domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.taken);
    if ((await this.store.countOwn(caller.tenantId)) >= this.config.domains.perOrg)
      throw domainRefusal(HttpStatus.UNPROCESSABLE_ENTITY, DOMAIN_ERRORS.limit);
    const now = this.clock.now();
    const domain: OrgDomainEntity = {
      id: this.ids.uuid(),
      tenantId: caller.tenantId,
      name,
      status: 'pending',
      joinMode: 'off',
      token: newToken(),
      tokenIssuedAt: now,
      lastCheckAt: null,
      lastCheckResult: null,
      verifiedAt: null,
      graceEndsAt: null,
      nextCheckAt: null,
      heldName: null,
      createdAt: now,
    };
    const event = auditEvents.aboutDomain('domain.added', domain, auditActor(caller));
    const written = await this.store.insert(domain, [event], this.config.domains.perOrg);
    if (written === 'duplicate') throw alreadyAdded;
    // Parallel claims: the count above is a fast refusal, the write's own count is the rule.
    if (written === 'limit') throw domainRefusal(HttpStatus.UNPROCESSABLE_ENTITY, DOMAIN_ERRORS.limit);
    return { success: true, domain: this.toResponse(domain, [], now) };
  }

  async list(caller: OrgCaller): Promise<ListDomainsResponse> {
    const now = this.clock.now();
    const domains = await this.store.listOwn(caller.tenantId);
    const roles = await this.store.defaultRolesOf(domains.map((domain) => domain.id));
    return { domains: domains.map((domain) => this.toResponse(domain, roles.get(domain.id) ?? [], now)) };
  }

  async get(caller: OrgCaller, name: string): Promise<OneDomainResponse> {
    return { domain: await this.answer(await this.own(caller, name)) };
  }

  /** POST /api/org/domains/{name}/verify: the TXT record is looked up now. */
  async verify(caller: OrgCaller, name: string): Promise<DomainAnswer> {
    const domain = await this.own(caller, name);
    const now = this.clock.now();
    const refusal = verifyRefusal(domain, now, this.config.domains);
    if (refusal === 'expired') {
      if (domain.status === 'pending') await this.store.update(domain, { status: 'expired' }, []);
      throw domainRefusal(HttpStatus.GONE, DOMAIN_ERRORS.expired);
    }
    if (refusal === 'lapsed') throw domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.lapsed);
    const taken = domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.taken);
    if (domain.status === 'pending' && (await this.store.heldByAnother(domain.name, caller.tenantId))) throw taken;
    let result: CheckResult;
    try {
      result = await this.check(domain);
    } catch (error) {
      if (error instanceof DnsUnavailableError) {
        this.logger.warn(`Verifying ${domain.name}: ${error.message}`);
        throw domainRefusal(HttpStatus.SERVICE_UNAVAILABLE, DOMAIN_ERRORS.dnsUnavailable);
      }
      throw error;
    }
    const outcome = this.outcome(domain, result, this.clock.now(), auditActor(caller));
    try {
      await this.store.update(domain, outcome.changes, outcome.events);
    } catch (error) {
      // Another organisation proved the name first: this claim stays pending.
      if (isUniqueViolation(error)) throw taken;
      throw error;
    }
    // A parallel change won: answer the claim as it is now.
    return { success: true, domain: await this.answer(await this.own(caller, name)) };
  }

  /** POST /api/org/domains/{name}/rotate: a new token and a new window for a pending, expired or lapsed claim. */
  async rotate(caller: OrgCaller, name: string): Promise<DomainAnswer> {
    const domain = await this.own(caller, name);
    if (!canRotate(domain)) throw domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.alreadyVerified);
    const now = this.clock.now();
    const event = auditEvents.aboutDomain('domain.updated', domain, auditActor(caller), {
      token: 'rotated',
      statusBefore: shownStatus(domain, now, this.config.domains),
    });
    await this.store.update(domain, rotation(newToken(), now), [event]);
    return { success: true, domain: await this.answer(await this.own(caller, name)) };
  }

  /**
   * PATCH /api/org/domains/{name}: the join mode, the default roles (the custom roles that joins by
   * the domain get), or both; the roles checked as an invitation's are (limit, known, no escalation).
   * The body is validated after the look-up, not by a pipe: an unknown name is 404 whatever the body.
   */
  async update(caller: OrgCaller, name: string, body: unknown): Promise<DomainAnswer> {
    const domain = await this.own(caller, name);
    const { joinMode, defaultRoles } = validateDomainBody(UpdateDomainBody, body, DOMAIN_ERRORS.invalidJoinMode);
    if (defaultRoles !== undefined) await this.permissions.grantable(caller.tenantId, defaultRoles, caller);
    const actor = auditActor(caller);
    if (joinMode !== undefined && joinMode !== domain.joinMode) {
      const event = auditEvents.aboutDomain('domain.updated', domain, actor, {
        joinMode: { before: domain.joinMode, after: joinMode },
      });
      await this.store.update(domain, { joinMode }, [event]);
    }
    if (defaultRoles !== undefined) await this.replaceDefaultRoles(domain, [...new Set(defaultRoles)].sort(), actor);
    return { success: true, domain: await this.answer(await this.own(caller, name)) };
  }

  /** The claim's default roles become `keys`, each as defined now; read again when one changed meanwhile. */
  private async replaceDefaultRoles(domain: OrgDomainEntity, keys: string[], actor: AuditActor): Promise<void> {
    await retryWhileChanged(async () => {
      const before = (await this.store.defaultRolesOf([domain.id])).get(domain.id) ?? [];
      if (before.length === keys.length && before.every((key, i) => key === keys[i])) return true;
      const roles = (await this.grants.roles(domain.tenantId)).filter((role) => keys.includes(role.key));
      const event = auditEvents.aboutDomain('domain.updated', domain, actor, {
        defaultRoles: { before, after: roles.map((role) => role.key) },
      });
      return (await this.store.replaceDefaultRoles(domain, roles, [event])) ? true : undefined;
    });
  }

  /** The claim as the API answers it, with its default roles. */
  private async answer(domain: OrgDomainEntity, now = this.clock.now()): Promise<DomainResponse> {
    return this.toResponse(domain, (await this.store.defaultRolesOf([domain.id])).get(domain.id) ?? [], now);
  }

  /** DELETE /api/org/domains/{name}: pending requests by it are rejected; members stay. */
  async remove(caller: OrgCaller, name: string): Promise<RemoveDomainResponse> {
    const domain = await this.own(caller, name);
    const now = this.clock.now();
    const membersKept = await this.membersAt(domain);
    const actor = auditActor(caller);
    const closed = await this.store.remove(domain, now, (pending) => [
      ...pending.map((request) =>
        auditEvents.aboutJoinRequest('join_request.rejected', request, actor, { reason: 'domain_removed' }),
      ),
      auditEvents.aboutDomain('domain.removed', domain, actor, {
        statusBefore: domain.status,
        closedRequests: pending.length,
        membersKept,
      }),
    ]);
    if (!closed) throw domainRefusal(HttpStatus.NOT_FOUND, DOMAIN_ERRORS.notFound);
    return { success: true, closedRequests: closed.length, membersKept };
  }

  /** The TXT records at the claim's record name, judged. Throws DnsUnavailableError. */
  async check(domain: OrgDomainEntity): Promise<CheckResult> {
    return judgeRecords(await this.dns.txt(recordName(domain.name)), domain.token);
  }

  /** What a check's result does to the claim (domain-verification.ts), with its event as the actor's. */
  outcome(domain: OrgDomainEntity, result: CheckResult, now: Date, actor: AuditActor | null): CheckOutcome {
    const { changes, event } = checkTransition(domain, result, now, this.config.domains);
    return { changes, events: event ? [auditEvents.aboutDomain(event.type, domain, actor, event.data)] : [] };
  }

  /** The organisation's claim on the name in the path (normalised as a claim is); 404 when none. */
  private async own(caller: OrgCaller, name: string): Promise<OrgDomainEntity> {
    const normalised = normaliseDomain(name);
    const domain = normalised && (await this.store.findOwn(caller.tenantId, normalised));
    if (!domain) throw domainRefusal(HttpStatus.NOT_FOUND, DOMAIN_ERRORS.notFound);
    return domain;
  }

  /** The organisation's members whose address is at the domain, read through the identity store. */
  private async membersAt(domain: OrgDomainEntity): Promise<number> {
    let count = 0;
    let after: { email: string; id: string } | undefined;
    for (;;) {
      const page = await this.identity.listTenantMembers(domain.tenantId, after, MAX_PAGE_SIZE);
      count += page.filter((member) => emailDomain(member.email) === domain.name).length;
      if (page.length < MAX_PAGE_SIZE) return count;
      const last = page[page.length - 1];
      after = { email: last.email, id: last.id };
    }
  }
}

/** 256 random bits, URL-safe: the claim's own token. */
const newToken = () => randomBytes(32).toString('base64url');

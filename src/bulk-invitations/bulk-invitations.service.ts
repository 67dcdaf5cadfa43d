import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import type { Response } from 'express';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { comparableEmail, emailKey } from '../common/email-comparison';
import { INVITATION_ROLES } from '../database/entities/invitation.entity';
import { IdentityStore } from '../identity/identity-store';
import { toCreatedInvitationResponse } from '../invitations/dto/created-invitation.response';
import { NO_CONTROL_CHARACTERS } from '../invitations/invitation';
import { InvitationIssuer } from '../invitations/invitation-issuer';
import { InvitationsStore } from '../invitations/invitations.store';
import { Metrics } from '../metrics/metrics';
import { GrantRefusal, MemberPermissions } from '../permissions/member-permissions';
import { ROLE_KEY_PATTERN } from '../permissions/permission-catalogue';
import { ROLE_ERRORS } from '../permissions/role-errors';
import { InviteAllowance } from '../rate-limit/invite-allowance';
import {
  BulkInvitationResult,
  BulkInvitationsBody,
  BulkInvitationsResponse,
  BulkRowStatus,
} from './dto/bulk-invitations.dto';
import { BULK_ROW_ERRORS } from './bulk-invitations.messages';

/** Member look-ups run this many at a time: a Cognito pool answers a burst with throttling. */
const MEMBER_LOOKUPS_AT_ONCE = 10;

const SKIPPED: BulkRowStatus[] = ['already_member', 'already_invited', 'duplicate_in_request'];

/** A row that passed its own checks: what would be stored for it. */
interface Candidate {
  result: BulkInvitationResult;
  email: string;
  role: string;
  /** The custom roles the row names (docs/roles.md). */
  roles: string[];
  key: string;
}

/**
 * POST /api/org/invitations/bulk: one answer per row, in the request's order. The rows are checked
 * as spec 4.9 checks one (address, role, membership), then against each other and the tenant's
 * pending invitations, with the service's one comparison of addresses (comparableEmail). Each row
 * that remains takes one unit of the caller's invitation limit; those beyond what is left are
 * `rate_limited`. A dry run answers the same from a read of the limit, and stores nothing.
 */
@Injectable()
export class BulkInvitationsService {
  constructor(
    private readonly identity: IdentityStore,
    private readonly invitations: InvitationsStore,
    private readonly issuer: InvitationIssuer,
    private readonly allowance: InviteAllowance,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly permissions: MemberPermissions,
  ) {}

  async invite(
    caller: OrgCaller,
    request: BulkInvitationsBody,
    origin: string,
    response: Response,
  ): Promise<BulkInvitationsResponse> {
    const results: BulkInvitationResult[] = [];
    const firstRowOf = new Map<string, number>();
    const candidates: Candidate[] = [];
    request.invitations.forEach((item, index) => {
      const row = index + 1;
      const fields =
        typeof item === 'object' && item !== null && !Array.isArray(item)
          ? (item as Record<string, unknown>)
          : undefined;
      const result: BulkInvitationResult = {
        row,
        ...(typeof fields?.email === 'string' && { email: fields.email }),
        status: 'created',
      };
      results.push(result);
      const problem = fields ? rowProblem(fields) : BULK_ROW_ERRORS.notAnObject;
      if (problem) return settle(result, 'invalid', problem);
      const email = fields!.email as string;
      const key = comparableEmail(email);
      const first = firstRowOf.get(key);
      if (first !== undefined) return settle(result, 'duplicate_in_request', BULK_ROW_ERRORS.duplicateOf(first));
      firstRowOf.set(key, row);
      candidates.push({
        result,
        email,
        role: fields!.role as string,
        roles: [...((fields!.roles ?? []) as string[])].sort(),
        key,
      });
    });

    const remaining = await this.withoutMembersOrInvited(caller, await this.withGrantableRoles(caller, candidates));
    const units = request.dryRun
      ? await this.allowance.preview(caller, remaining.length)
      : await this.allowance.reserve(caller, remaining.length);
    const allowed = remaining.slice(0, units.granted);
    remaining.slice(units.granted).forEach(({ result }) => settle(result, 'rate_limited', BULK_ROW_ERRORS.rateLimited));
    if (remaining.length > units.granted && !request.dryRun) this.metrics.inviteRateLimited();

    if (!request.dryRun && allowed.length) {
      // Failing before any batch (the tenant's name unreadable, say) stores nothing: the units go back, and the route answers 500.
      const outcomes = await this.issuer.issueMany(caller, allowed, origin).catch(async (error: unknown) => {
        await units.release(allowed.length);
        throw error;
      });
      let failed = 0;
      outcomes.forEach((outcome, index) => {
        const { result, email, roles } = allowed[index];
        if (outcome instanceof Error) {
          failed++;
          settle(result, 'failed', BULK_ROW_ERRORS.createFailed);
        } else result.invitation = toCreatedInvitationResponse(outcome, email, roles);
      });
      await units.release(failed);
    }
    units.setHeaders(response);
    return { results, summary: summaryOf(results) };
  }

  /** The candidates whose custom roles the caller may give (docs/roles.md); the others are settled `invalid`. */
  private async withGrantableRoles(caller: OrgCaller, candidates: Candidate[]): Promise<Candidate[]> {
    const check = this.permissions.grantChecker(caller.tenantId, caller);
    const refusals = await Promise.all(candidates.map(({ roles }) => check(roles)));
    return candidates.filter(
      ({ result }, index) => !(refusals[index] && settle(result, 'invalid', roleRowError(refusals[index]))),
    );
  }

  /** The candidates neither members of the tenant nor holders of one of its pending invitations; the others are settled. */
  private async withoutMembersOrInvited(caller: OrgCaller, candidates: Candidate[]): Promise<Candidate[]> {
    if (!candidates.length) return [];
    const keys = candidates.map(({ email }) => emailKey(email));
    const invited = await this.invitations.findAcceptableKeys(caller.tenantId, keys, this.clock.now());
    const toLookUp = candidates.filter(
      ({ result }, index) =>
        !(invited.has(keys[index]) && settle(result, 'already_invited', BULK_ROW_ERRORS.alreadyInvited)),
    );
    const members = new Set<Candidate>();
    for (let start = 0; start < toLookUp.length; start += MEMBER_LOOKUPS_AT_ONCE) {
      const batch = toLookUp.slice(start, start + MEMBER_LOOKUPS_AT_ONCE);
      const found = await Promise.all(
        batch.map(({ email }) => this.identity.findTenantMemberByEmail(caller.tenantId, email)),
      );
      batch.forEach((candidate, index) => found[index] && members.add(candidate));
    }
    members.forEach(({ result }) => settle(result, 'already_member', BULK_ROW_ERRORS.alreadyMember));
    return toLookUp.filter((candidate) => !members.has(candidate));
  }
}

/** Spec 4.9 rules 1–3 on one row, in their order (InviteDto's rules), then its roles' form; null when it passes. */
function rowProblem({ email, role, roles }: Record<string, unknown>): string | null {
  if (email === undefined || email === null || email === '') return BULK_ROW_ERRORS.emailRequired;
  if (typeof email !== 'string' || !isEmail(email, {}) || !NO_CONTROL_CHARACTERS.test(email))
    return BULK_ROW_ERRORS.invalidEmail;
  if (!INVITATION_ROLES.includes(role as never)) return BULK_ROW_ERRORS.invalidRole;
  if (roles !== undefined && roles !== null && !isRoleKeyList(roles)) return BULK_ROW_ERRORS.invalidRoles;
  return null;
}

const isRoleKeyList = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  new Set(value).size === value.length &&
  value.every((key) => typeof key === 'string' && ROLE_KEY_PATTERN.test(key));

/** A row's refusal of its custom roles, as the sentence of its `error`. */
function roleRowError({ error, details }: GrantRefusal): string {
  if (error === ROLE_ERRORS.unknownRole) return BULK_ROW_ERRORS.unknownRole(details.role!);
  if (error === ROLE_ERRORS.escalation) return BULK_ROW_ERRORS.roleEscalation(details.permission!);
  return BULK_ROW_ERRORS.tooManyRoles(details.limit!);
}

/** Gives the row its final status and error; true, for use in filters. */
function settle(result: BulkInvitationResult, status: BulkRowStatus, error: string): true {
  result.status = status;
  result.error = error;
  return true;
}

function summaryOf(results: BulkInvitationResult[]): BulkInvitationsResponse['summary'] {
  const created = results.filter((result) => result.status === 'created').length;
  const skipped = results.filter((result) => SKIPPED.includes(result.status)).length;
  return { created, skipped, failed: results.length - created - skipped };
}

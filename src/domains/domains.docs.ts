import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, FORBIDDEN_BODY, UNAUTHORIZED_BODY } from '../common/openapi';
import { ROLE_ERRORS, RoleErrorBody, roleErrorBody } from '../permissions/role-errors';
import { DomainErrorBody, domainErrorBody } from './domain-errors';
import { AddDomainBody, ReleaseDomainBody, UpdateDomainBody } from './dto/domain-bodies';
import { DOMAIN_ERRORS, DOMAIN_GUARD_MESSAGES, DomainErrorCode } from './domains.messages';

/** A documented answer. */
const ok = (status: number, type: unknown, description: string) =>
  ApiResponse({ status, type: type as never, description });

const refusals = (status: HttpStatus, description: string, codes: DomainErrorCode[]) =>
  ApiErrorResponse(status, description, codes.map(domainErrorBody), DomainErrorBody);

/** The guards' answers on the routes of an organisation's owners and admins. */
const orgAdmin = () =>
  applyDecorators(
    ApiSession(),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(
      HttpStatus.FORBIDDEN,
      'Not an owner or admin of an organisation, or the organisation is suspended',
      [{ error: DOMAIN_GUARD_MESSAGES.notOrgUser }, { error: DOMAIN_GUARD_MESSAGES.notOwnerOrAdmin }],
    ),
  );

const nameParam = () =>
  ApiParam({ name: 'name', description: 'The domain, normalised as a claim is (trimmed, lower-cased, A-label)' });

export const ApiOrgDomains = () => applyDecorators(ApiTags('Organisation: verified domains'), orgAdmin());

export const ApiAddDomain = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary: 'Claim an e-mail domain: a pending claim with its own TXT record to publish',
      description:
        'Rules in order: DOMAIN_INVALID (400), DOMAIN_PUBLIC_SUFFIX, DOMAIN_FREE_PROVIDER (422), DOMAIN_ALREADY_ADDED, ' +
        'DOMAIN_TAKEN (409: another organisation holds it verified or failing), DOMAIN_LIMIT (422, DOMAINS_PER_ORG). Event domain.added.',
    }),
    ApiBody({ type: AddDomainBody }),
    ok(HttpStatus.CREATED, type, 'The claim, pending, join mode off'),
    refusals(HttpStatus.BAD_REQUEST, 'Not a domain name', [DOMAIN_ERRORS.invalid]),
    refusals(HttpStatus.CONFLICT, 'Claimed already', [DOMAIN_ERRORS.alreadyAdded, DOMAIN_ERRORS.taken]),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'A name that cannot be claimed, or too many', [
      DOMAIN_ERRORS.publicSuffix,
      DOMAIN_ERRORS.freeProvider,
      DOMAIN_ERRORS.limit,
    ]),
  );

export const ApiListDomains = (type: unknown) =>
  applyDecorators(
    ApiOperation({ summary: "The organisation's claims, by name" }),
    ok(HttpStatus.OK, type, 'The claims'),
  );

export const ApiGetDomain = (type: unknown) =>
  applyDecorators(
    ApiOperation({ summary: 'One claim of the organisation' }),
    nameParam(),
    ok(HttpStatus.OK, type, 'The claim'),
    refusals(HttpStatus.NOT_FOUND, 'The organisation has no such claim', [DOMAIN_ERRORS.notFound]),
  );

export const ApiVerifyDomain = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary: 'Look the TXT record up now: a pending claim becomes verified; a verified or failing one is re-checked',
      description:
        'lastCheck.result: found, record_not_found or token_mismatch. Events: domain.verified, domain.verification_failed, ' +
        'domain.failing, domain.lapsed. A resolver that fails or times out (DNS_TIMEOUT_MS) leaves the claim as it was: ' +
        '503 `{"success":false,"error":"DNS_UNAVAILABLE"}`.',
    }),
    nameParam(),
    ok(HttpStatus.OK, type, 'The claim after the check'),
    refusals(HttpStatus.NOT_FOUND, 'The organisation has no such claim', [DOMAIN_ERRORS.notFound]),
    refusals(HttpStatus.CONFLICT, 'Another organisation proved it first, or the claim lapsed (rotate first)', [
      DOMAIN_ERRORS.taken,
      DOMAIN_ERRORS.lapsed,
    ]),
    refusals(HttpStatus.GONE, 'The pending claim is older than DOMAIN_VERIFICATION_TTL_SECONDS: now expired', [
      DOMAIN_ERRORS.expired,
    ]),
  );

export const ApiRotateDomain = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary: 'A new token and a new window for a pending, expired or lapsed claim; the old value stops working',
    }),
    nameParam(),
    ok(HttpStatus.OK, type, 'The claim, pending, with its new record value'),
    refusals(HttpStatus.NOT_FOUND, 'The organisation has no such claim', [DOMAIN_ERRORS.notFound]),
    refusals(HttpStatus.CONFLICT, 'The claim is verified or failing', [DOMAIN_ERRORS.alreadyVerified]),
  );

export const ApiUpdateDomain = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary:
        'Set the join mode (off, request or auto, acting only while the claim is verified or failing), ' +
        'the default roles that joins by the domain get, or both',
      description:
        'defaultRoles replaces the set; checked as an invitation’s roles are: MEMBER_ROLE_LIMIT and UNKNOWN_ROLE ' +
        '(422), ROLE_ESCALATION (403: a permission of a role that the caller lacks). Event domain.updated.',
    }),
    nameParam(),
    ApiBody({ type: UpdateDomainBody }),
    ok(HttpStatus.OK, type, 'The claim'),
    refusals(HttpStatus.BAD_REQUEST, 'Not a join mode, or default roles that are not a list of keys', [
      DOMAIN_ERRORS.invalidJoinMode,
      DOMAIN_ERRORS.invalidDefaultRoles,
    ]),
    ApiErrorResponse(
      HttpStatus.UNPROCESSABLE_ENTITY,
      'Too many roles, or one the organisation does not have',
      [
        roleErrorBody(ROLE_ERRORS.memberLimit, { limit: 10 }),
        roleErrorBody(ROLE_ERRORS.unknownRole, { role: 'recruter' }),
      ],
      RoleErrorBody,
    ),
    refusals(HttpStatus.NOT_FOUND, 'The organisation has no such claim', [DOMAIN_ERRORS.notFound]),
  );

export const ApiRemoveDomain = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary: 'Remove the claim: its pending join requests are rejected; members who joined by it stay members',
      description: 'Events: join_request.rejected for each, domain.removed.',
    }),
    nameParam(),
    ok(HttpStatus.OK, type, 'Removed'),
    refusals(HttpStatus.NOT_FOUND, 'The organisation has no such claim', [DOMAIN_ERRORS.notFound]),
  );

export const ApiJoinRequests = () => applyDecorators(ApiTags('Organisation: join requests'), orgAdmin());

export const ApiListJoinRequests = (type: unknown) =>
  applyDecorators(
    ApiOperation({ summary: "The organisation's join requests with this status (pending by default), oldest first" }),
    ApiQuery({ name: 'status', required: false, enum: ['pending', 'approved', 'rejected'] }),
    ok(HttpStatus.OK, type, 'The requests'),
    refusals(HttpStatus.BAD_REQUEST, 'Not a status', [DOMAIN_ERRORS.invalidStatus]),
  );

export const ApiDecideJoinRequest = (type: unknown, approve: boolean) =>
  applyDecorators(
    ApiOperation({
      summary: approve
        ? 'Approve: the person becomes a member with the role member (events join_request.approved, member.joined via domain)'
        : 'Reject (event join_request.rejected)',
    }),
    ApiParam({ name: 'id', description: 'The request id' }),
    ok(HttpStatus.OK, type, 'The request, decided'),
    refusals(HttpStatus.NOT_FOUND, 'No such request in the organisation', [DOMAIN_ERRORS.requestNotFound]),
    refusals(
      HttpStatus.CONFLICT,
      approve
        ? 'Decided already; or, since they asked, the person joined an organisation or their account was deleted (the request is closed)'
        : 'Decided already',
      approve
        ? [
            DOMAIN_ERRORS.requestClosed,
            DOMAIN_ERRORS.memberOfAnotherOrganisation,
            DOMAIN_ERRORS.alreadyMember,
            DOMAIN_ERRORS.emailInUse,
            DOMAIN_ERRORS.accountDeleted,
          ]
        : [DOMAIN_ERRORS.requestClosed],
    ),
  );

export const ApiJoinableOrganisations = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary:
        'Active organisations with a verified or failing domain equal to the e-mail’s domain and a join mode other than off',
      description: 'Empty when the e-mail is not verified or the caller belongs to an organisation.',
    }),
    ok(HttpStatus.OK, type, 'The organisations'),
  );

export const ApiJoinOrganisation = (joined: unknown, requested: unknown) =>
  applyDecorators(
    ApiOperation({
      summary: 'Join by the e-mail’s domain: auto makes a member at once; request files a pending request',
      description:
        'Refusals in order, each changing nothing: 401; EMAIL_NOT_VERIFIED (403); ' +
        'MEMBER_OF_ANOTHER_ORGANISATION or ALREADY_MEMBER (409); ' +
        'NOT_JOINABLE (404); REMOVED_BY_ORGANISATION (403, until the organisation invites them ' +
        'again); SSO_REQUIRED (403, with startUrl) for an organisation that requires single sign-on. ' +
        'Event member.joined (via domain) or join_request.created.',
    }),
    ApiParam({ name: 'tenantId' }),
    ok(HttpStatus.OK, joined, 'auto: a member with the role member'),
    ok(
      HttpStatus.ACCEPTED,
      requested,
      'request: the pending request (the same one when asked again); cognito auto join still on its way to the pool',
    ),
    refusals(
      HttpStatus.FORBIDDEN,
      'The e-mail is not verified, the organisation removed this person, or it requires single sign-on ' +
        '(SSO_REQUIRED, with startUrl: sign in there instead)',
      [DOMAIN_ERRORS.emailNotVerified, DOMAIN_ERRORS.removed, DOMAIN_ERRORS.ssoRequired],
    ),
    refusals(HttpStatus.CONFLICT, 'A member of an organisation already', [
      DOMAIN_ERRORS.memberOfAnotherOrganisation,
      DOMAIN_ERRORS.alreadyMember,
      DOMAIN_ERRORS.emailInUse,
    ]),
    refusals(HttpStatus.NOT_FOUND, 'No such domain, join mode or active organisation', [DOMAIN_ERRORS.notJoinable]),
  );

export const ApiAdminDomains = () =>
  applyDecorators(
    ApiTags('Admin: domains'),
    ApiSession(),
    ApiErrorResponse(HttpStatus.FORBIDDEN, 'Not a super-admin', [FORBIDDEN_BODY]),
  );

export const ApiListAdminDomains = (type: unknown) =>
  applyDecorators(
    ApiOperation({ summary: 'The claims of a name across organisations' }),
    ApiQuery({ name: 'name', required: true }),
    ok(HttpStatus.OK, type, 'The claims, oldest first'),
    refusals(HttpStatus.BAD_REQUEST, 'No name, or not a domain name', [
      DOMAIN_ERRORS.nameRequired,
      DOMAIN_ERRORS.invalid,
    ]),
  );

export const ApiReleaseDomain = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary:
        "Release an organisation's claim: it becomes lapsed and no longer holds the name (event domain.released with the reason)",
    }),
    nameParam(),
    ApiBody({ type: ReleaseDomainBody }),
    ok(HttpStatus.OK, type, 'The claim, lapsed'),
    refusals(HttpStatus.BAD_REQUEST, 'No tenantId, or no reason or a blank one', [
      DOMAIN_ERRORS.tenantRequired,
      DOMAIN_ERRORS.reasonRequired,
    ]),
    refusals(HttpStatus.NOT_FOUND, 'That organisation has no such claim', [DOMAIN_ERRORS.notFound]),
  );

import { DiscoverBody } from './dto/sso-bodies';
import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiPublic, ApiSession, FORBIDDEN_BODY, UNAUTHORIZED_BODY } from '../common/openapi';
import {
  OneSsoConnection,
  SsoAttemptList,
  SsoConnectionChanged,
  SsoConnectionList,
  SsoDiscovery,
  SsoEnforcement,
  SsoEnforcementChanged,
  SsoTestStart,
} from './dto/sso.response';
import { CreateConnectionBody, SetEnforcementBody, UpdateConnectionBody } from './dto/sso-bodies';
import { SSO_ERRORS, SSO_GUARD_MESSAGES, SsoErrorBody, SsoErrorCode } from './sso.messages';

/*
 * The API document's part for single sign-on's API routes (docs/sso.md); the browser's routes under
 * /sso/ are sso-browser.docs.ts'.
 */

/** A status of refusals with these codes, each as its body shows it. */
export const refusals = (status: HttpStatus, description: string, codes: SsoErrorCode[]) =>
  ApiErrorResponse(
    status,
    description,
    codes.map((error) => ({ success: false, error, reason: '…' })),
    SsoErrorBody,
  );

/**
 * Every SSO route answers 503 {"success":false,"error":"SSO_NOT_CONFIGURED"} under NODE_ENV=production
 * without SSO_SECRETS_KEY: said in each description, since the document's 503 is the request timeout's alone.
 */
const NOT_CONFIGURED =
  ' Under NODE_ENV=production without SSO_SECRETS_KEY: 503 {"success":false,"error":"SSO_NOT_CONFIGURED","reason"}.';

/** What a sign-in's start (and an OIDC callback, for the secret) answers 503 beside the timeout. */
export const START_UNAVAILABLE =
  ' Under NODE_ENV=production without PUBLIC_BASE_URL: 503 SSO_NOT_CONFIGURED naming it. A client secret that no ' +
  'key of SSO_SECRETS_KEY opens: 503 SSO_SECRET_UNREADABLE, recorded as an attempt.';

const idParam = () => ApiParam({ name: 'id', description: 'The connection’s id' });
const notFound = () => refusals(HttpStatus.NOT_FOUND, 'No such connection in this organisation', [SSO_ERRORS.notFound]);

/** The guards' answers on the org routes of single sign-on; `forbidden`: who is refused 403. */
const ssoOrgRoutes = (forbidden: string) =>
  applyDecorators(
    ApiTags('Organisation: single sign-on'),
    ApiSession(),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(HttpStatus.FORBIDDEN, `${forbidden}, or the organisation is suspended`, [
      { error: SSO_GUARD_MESSAGES.notOrgUser },
      FORBIDDEN_BODY,
    ]),
  );

/** The connection routes: owners only. */
export const ApiSsoConnections = () => ssoOrgRoutes('Not an owner of an organisation (admins too)');

/** GET and PATCH /api/org/sso: owners, and admins to read. */
export const ApiSsoEnforcement = () => ssoOrgRoutes('Not an owner or admin of an organisation (admins: read only)');

export const ApiGetEnforcement = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Whether the organisation requires single sign-on of its members, and who keeps access without it',
      description: NOT_CONFIGURED.trim(),
    }),
    ApiResponse({ status: HttpStatus.OK, type: SsoEnforcement, description: 'The enforcement' }),
  );

export const ApiSetEnforcement = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Require single sign-on of the members (owners keep access: the break-glass), or stop requiring it',
      description:
        'From then on every org route refuses a member’s session that single sign-on did not make with 403 ' +
        '{"success":false,"error":"SSO_REQUIRED","startUrl"}, and a domain join or join request for the ' +
        'organisation answers the same. Owners only. Event sso.enforced.' +
        NOT_CONFIGURED,
    }),
    ApiBody({ type: SetEnforcementBody }),
    ApiResponse({ status: HttpStatus.OK, type: SsoEnforcementChanged, description: 'The enforcement' }),
    refusals(HttpStatus.BAD_REQUEST, 'Not {"enforced": true|false}', [SSO_ERRORS.enforcementInvalid]),
    refusals(HttpStatus.CONFLICT, 'No active connection to sign in by', [SSO_ERRORS.noActiveConnection]),
  );

export const ApiCreateConnection = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Connect the organisation’s identity provider (OIDC or SAML): a draft connection',
      description:
        'OIDC: the discovery document is read from {issuer}/.well-known/openid-configuration (its issuer must equal ' +
        'the one given, exactly). SAML: the IdP’s metadata (entity ID, HTTP-Redirect SSO URL, signing certificates). ' +
        'Rules in order: owner, SSO_CONNECTION_INVALID (400), SSO_CONNECTION_LIMIT (422, SSO_CONNECTIONS_PER_ORG), ' +
        'SSO_DISCOVERY_FAILED or SSO_METADATA_INVALID (422). Event sso.connection_created.' +
        NOT_CONFIGURED,
    }),
    ApiBody({ type: CreateConnectionBody }),
    ApiResponse({ status: HttpStatus.CREATED, type: SsoConnectionChanged, description: 'The connection, draft' }),
    refusals(HttpStatus.BAD_REQUEST, 'The body breaks a rule', [SSO_ERRORS.invalid]),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'Too many connections, or the provider’s document cannot be used', [
      SSO_ERRORS.limit,
      SSO_ERRORS.discoveryFailed,
      SSO_ERRORS.metadataInvalid,
    ]),
  );

export const ApiListConnections = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The organisation’s single sign-on connections, oldest first',
      description: NOT_CONFIGURED.trim(),
    }),
    ApiResponse({ status: HttpStatus.OK, type: SsoConnectionList, description: 'The connections' }),
  );

export const ApiGetConnection = () =>
  applyDecorators(
    ApiOperation({ summary: 'One connection', description: NOT_CONFIGURED.trim() }),
    idParam(),
    ApiResponse({ status: HttpStatus.OK, type: OneSsoConnection, description: 'The connection' }),
    notFound(),
  );

export const ApiUpdateConnection = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Change a connection: activate it, turn it off, its settings, its secret or its metadata',
      description:
        'status "active" makes a draft or inactive connection active (sso.connection_activated); the first active ' +
        'connection is the primary, which discovery uses. Other changes: sso.connection_updated. clientSecret and ' +
        'scopes are OIDC’s, metadataXml, metadataUrl and wantAssertionsSigned SAML’s (the other kind: 400).' +
        NOT_CONFIGURED,
    }),
    idParam(),
    ApiBody({ type: UpdateConnectionBody }),
    ApiResponse({ status: HttpStatus.OK, type: SsoConnectionChanged, description: 'The connection as changed' }),
    refusals(HttpStatus.BAD_REQUEST, 'The body breaks a rule', [SSO_ERRORS.invalid]),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'The new metadata cannot be used', [SSO_ERRORS.metadataInvalid]),
    notFound(),
  );

export const ApiDeleteConnection = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a connection, with its people’s links and attempts (members stay)',
      description: 'Event sso.connection_deleted.' + NOT_CONFIGURED,
    }),
    idParam(),
    ApiNoContentResponse({ description: 'Deleted' }),
    notFound(),
  );

export const ApiRefreshConnection = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Read the provider’s discovery document (OIDC) or metadata at its address (SAML) again',
      description: 'SAML metadata that was pasted: 422 SSO_METADATA_INVALID (PATCH new metadataXml).' + NOT_CONFIGURED,
    }),
    idParam(),
    ApiResponse({ status: HttpStatus.OK, type: SsoConnectionChanged, description: 'The connection' }),
    notFound(),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'The provider’s document cannot be used', [
      SSO_ERRORS.discoveryFailed,
      SSO_ERRORS.metadataInvalid,
    ]),
  );

export const ApiTestConnection = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Start a test sign-in of the connection, whatever its status',
      description:
        'The answer’s startUrl leads to the provider. Its callback runs every check of a sign-in, records the ' +
        'attempt, activates a draft connection when every check passed, and answers 200 ' +
        '{"success":true,"test":{"result":"ok","email","subject","membership":"member"|"joins","role","activated"}} ' +
        'without joining anyone or setting a session; a failed check answers as a sign-in’s refusal.' +
        NOT_CONFIGURED +
        START_UNAVAILABLE,
    }),
    idParam(),
    ApiResponse({ status: HttpStatus.OK, type: SsoTestStart, description: 'Where the test sign-in starts' }),
    notFound(),
  );

export const ApiConnectionAttempts = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The connection’s last 100 sign-in attempts, newest first, with the check that failed',
      description: NOT_CONFIGURED.trim(),
    }),
    idParam(),
    ApiResponse({ status: HttpStatus.OK, type: SsoAttemptList, description: 'The attempts' }),
    notFound(),
  );

export const ApiSsoDiscovery = () => applyDecorators(ApiTags('Single sign-on'), ApiPublic());

export const ApiDiscover = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Whether an e-mail address signs in by single sign-on, and where to start',
      description:
        'sso true when the address’s domain is verified (or failing within its grace) for an active organisation ' +
        'with an active primary connection; false otherwise, for an unknown domain as for a known one.' +
        NOT_CONFIGURED,
    }),
    ApiBody({ required: true, type: DiscoverBody }),
    ApiResponse({ status: HttpStatus.OK, type: SsoDiscovery, description: 'Where to sign in' }),
    refusals(HttpStatus.BAD_REQUEST, 'Not an e-mail address', [SSO_ERRORS.emailInvalid]),
    ApiErrorResponse(
      HttpStatus.TOO_MANY_REQUESTS,
      'Over SSO_DISCOVER_RATE_LIMIT calls from this address in a minute',
      [{ success: false, error: SSO_ERRORS.rateLimited, reason: '…' }],
      SsoErrorBody,
      { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
    ),
  );

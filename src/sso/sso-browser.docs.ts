/**
 * The API document's part for the browser's routes of single sign-on under /sso/ (docs/sso.md): the
 * start, the provider's redirect or form POST back, SAML's POST page and the SP metadata. Redirects
 * and pages rather than an API, marked `x-browser-route`; their refusals are JSON.
 */
import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiBrowserRoute } from '../common/openapi';
import { refusals, START_UNAVAILABLE } from './sso.docs';
import { SSO_ERRORS } from './sso.messages';

const idParam = () => ApiParam({ name: 'id', description: 'The connection’s id' });

/** Every route (the 500 is each handler's @FailureResponse; 503 SSO_NOT_CONFIGURED, the document's 503 admits). */
export const ApiSsoBrowser = () => applyDecorators(ApiTags('Single sign-on (browser)'), ApiBrowserRoute());

const redirect = (description: string, withCookie: boolean) =>
  ApiResponse({
    status: HttpStatus.FOUND,
    description,
    headers: {
      Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
      ...(withCookie && { 'Set-Cookie': { description: 'The session cookie', schema: { type: 'string' } } }),
    },
  });

export const ApiSsoStart = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Start a sign-in: a redirect to the provider (OIDC) or to the SAML request',
      description:
        'By connection id, or by e-mail address (its verified domain). returnTo: a path, or an allowed origin; ' +
        'none: SSO_DEFAULT_RETURN_TO, else GET /sso/signed-in.' +
        START_UNAVAILABLE,
    }),
    ApiQuery({ name: 'connection', required: false, type: String, description: 'The connection’s id' }),
    ApiQuery({ name: 'email', required: false, type: String, description: 'The address, when no connection is named' }),
    ApiQuery({ name: 'returnTo', required: false, type: String, description: 'Where to land after the sign-in' }),
    redirect('To the provider', false),
    refusals(HttpStatus.BAD_REQUEST, 'returnTo refused, or not an e-mail address', [
      SSO_ERRORS.returnRefused,
      SSO_ERRORS.emailInvalid,
    ]),
    refusals(HttpStatus.NOT_FOUND, 'No active connection for this e-mail or id', [SSO_ERRORS.notFound]),
  );

/** The provider's answer, OIDC's or SAML's: a redirect with the session, a test's result, or a refusal. */
const callback = () =>
  applyDecorators(
    idParam(),
    redirect('Signed in: to returnTo, with the session cookie', true),
    ApiResponse({
      status: HttpStatus.OK,
      description: 'An owner’s test sign-in: its result, no session',
      schema: {
        type: 'object',
        required: ['success', 'test'],
        properties: {
          success: { type: 'boolean', enum: [true] },
          test: {
            type: 'object',
            required: ['result', 'email', 'subject', 'membership', 'role', 'roles', 'activated'],
            properties: {
              result: { type: 'string', enum: ['ok'] },
              email: { type: 'string' },
              subject: { type: 'string' },
              membership: { type: 'string', enum: ['member', 'joins'] },
              role: { type: 'string' },
              roles: { type: 'array', items: { type: 'string' } },
              activated: { type: 'boolean' },
            },
          },
        },
      },
    }),
    refusals(HttpStatus.BAD_REQUEST, 'The state, the provider’s answer, its token or assertion refused', [
      SSO_ERRORS.stateInvalid,
      SSO_ERRORS.idpError,
      SSO_ERRORS.tokenInvalid,
      SSO_ERRORS.assertionInvalid,
      SSO_ERRORS.replayed,
    ]),
    refusals(HttpStatus.FORBIDDEN, 'The person may not sign in to this organisation', [
      SSO_ERRORS.domainMismatch,
      SSO_ERRORS.notProvisioned,
      SSO_ERRORS.removed,
    ]),
    refusals(HttpStatus.NOT_FOUND, 'No such connection', [SSO_ERRORS.notFound]),
    refusals(HttpStatus.CONFLICT, 'A member of another organisation, or the address is another account’s', [
      SSO_ERRORS.memberOfAnotherOrganisation,
      SSO_ERRORS.emailInUse,
    ]),
  );

export const ApiOidcCallback = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The OIDC provider’s redirect back (code and state)',
      description:
        'Every refusal names its check in reason (docs/sso.md, “Why an OpenID Connect sign-in was refused”). A client ' +
        'secret that no key of SSO_SECRETS_KEY opens: 503 SSO_SECRET_UNREADABLE, recorded as an attempt.',
    }),
    ApiQuery({ name: 'code', required: false, type: String }),
    ApiQuery({ name: 'state', required: false, type: String }),
    callback(),
  );

export const ApiSamlAcs = () =>
  applyDecorators(
    ApiOperation({ summary: 'SAML’s assertion consumer service: the provider’s form POST (HTTP-POST binding)' }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      required: false,
      schema: {
        type: 'object',
        properties: { SAMLResponse: { type: 'string' }, RelayState: { type: 'string' } },
      },
    }),
    callback(),
  );

export const ApiSamlPostPage = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The page that posts a pending sign-in’s AuthnRequest to a provider that takes HTTP-POST',
    }),
    idParam(),
    ApiParam({ name: 'requestId', description: 'The pending sign-in' }),
    ApiResponse({
      status: HttpStatus.OK,
      description: 'A page that submits itself',
      content: { 'text/html': { schema: { type: 'string' } } },
    }),
    refusals(HttpStatus.NOT_FOUND, 'No pending sign-in with this id (used, expired, or another connection’s)', [
      SSO_ERRORS.notFound,
    ]),
  );

export const ApiSamlMetadata = () =>
  applyDecorators(
    ApiOperation({ summary: 'This connection’s SP metadata, for the provider to read' }),
    idParam(),
    ApiResponse({
      status: HttpStatus.OK,
      description: 'The SP metadata',
      content: { 'application/samlmetadata+xml': { schema: { type: 'string' } } },
    }),
    refusals(HttpStatus.NOT_FOUND, 'No SAML connection with this id', [SSO_ERRORS.notFound]),
  );

export const ApiSignedInPage = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Where a sign-in without returnTo lands (SSO_DEFAULT_RETURN_TO unset): who is signed in, and a sign-out',
      description:
        '“Signed in as … to …” with a button that posts to POST /api/me/sign-out; without a session, that nobody is.',
    }),
    ApiResponse({
      status: HttpStatus.OK,
      description: 'A page, no script',
      content: { 'text/html': { schema: { type: 'string' } } },
    }),
  );

/**
 * The API document's part for setup links (docs/setup-links.md): the owners' routes under
 * /api/org/setup-links, the opening `GET /setup/{token}` (a browser route; the page `/setup` is in
 * page/setup-page.docs.ts), and the setup session's own routes under /api/setup.
 */
import { applyDecorators, HttpStatus } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiBrowserRoute,
  ApiErrorResponse,
  ApiSession,
  ApiSetupSession,
  FORBIDDEN_BODY,
  UNAUTHORIZED_BODY,
} from '../common/openapi';
import { NOT_ORG_USER } from '../common/messages';
import { CreateSetupLinkBody } from './dto/setup-link-bodies';
import { CreatedSetupLinkAnswer, SetupLinkListResponse } from './dto/setup-link.response';
import { SETUP_ERRORS, SetupErrorBody, SetupErrorCode } from './setup-links.messages';

/** A status of refusals with these codes, each as its body shows it. */
export const setupRefusals = (status: HttpStatus, description: string, codes: SetupErrorCode[]) =>
  ApiErrorResponse(
    status,
    description,
    codes.map((error) => ({ success: false, error, reason: '…' })),
    SetupErrorBody,
  );

const idParam = () => ApiParam({ name: 'id', description: 'The setup link’s id' });

/** The owners' routes: `setup_links:manage`, which only owners hold. */
export const ApiOrgSetupLinks = () =>
  applyDecorators(
    ApiTags('Organisation: setup links'),
    ApiSession(),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(HttpStatus.FORBIDDEN, 'Not an owner of an organisation, or the organisation is suspended', [
      { error: NOT_ORG_USER },
      FORBIDDEN_BODY,
    ]),
  );

export const ApiCreateSetupLink = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Make a link for the IT admin: domains, single sign-on, SCIM (the URL is shown once)',
      description:
        'Rules in order: owner, SETUP_LINK_INVALID (400), SETUP_LINK_LIMIT (422, SETUP_LINKS_PER_ORG open links). ' +
        'With email, the link is also e-mailed through the outbox. Event setup_link.created.',
    }),
    ApiBody({ type: CreateSetupLinkBody }),
    ApiCreatedResponse({ type: CreatedSetupLinkAnswer }),
    setupRefusals(HttpStatus.BAD_REQUEST, 'The body breaks a rule', [SETUP_ERRORS.invalid]),
    setupRefusals(HttpStatus.UNPROCESSABLE_ENTITY, 'The organisation has SETUP_LINKS_PER_ORG open links', [
      SETUP_ERRORS.limit,
    ]),
  );

export const ApiListSetupLinks = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The organisation’s setup links, newest first, with their status (never their URL)',
      description: 'A link seen expired here for the first time records its setup_link.expired event.',
    }),
    ApiOkResponse({ type: SetupLinkListResponse }),
  );

export const ApiRevokeSetupLink = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Revoke a setup link: its sessions end at once, on every instance',
      description: 'Event setup_link.revoked.',
    }),
    idParam(),
    ApiNoContentResponse({ description: 'Revoked' }),
    setupRefusals(HttpStatus.NOT_FOUND, 'No such link in this organisation', [SETUP_ERRORS.notFound]),
    setupRefusals(HttpStatus.CONFLICT, 'The link is completed, revoked or expired', [SETUP_ERRORS.closed]),
  );

const PAGE = { schema: { type: 'string' } } as const;

/** The browser's routes: pages. */
export const ApiSetupBrowser = () =>
  applyDecorators(ApiTags('Setup links (browser)'), ApiBrowserRoute(), ApiProduces('text/html'));

export const ApiOpenSetupLink = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The link’s address: sets the setup session and forwards to /setup',
      description:
        'A page that forwards (meta refresh, and a link) rather than a redirect: the SameSite=Strict cookie it sets ' +
        'is not sent on a redirect of a navigation that came from a mail client. Event setup_link.opened, with the ' +
        'client’s address. A link that does not open gets a page that says why, with no detail of the organisation.',
    }),
    ApiParam({ name: 'token', description: 'The link’s token' }),
    ApiResponse({
      status: HttpStatus.OK,
      description: 'Opened: the forwarding page, with the setup session’s cookie',
      headers: {
        'Set-Cookie': { description: 'setup_session: HttpOnly, SameSite=Strict, Path=/', schema: { type: 'string' } },
      },
      ...PAGE,
    }),
    ApiResponse({ status: HttpStatus.FORBIDDEN, description: 'The organisation is suspended', ...PAGE }),
    ApiResponse({ status: HttpStatus.NOT_FOUND, description: 'No such link', ...PAGE }),
    ApiResponse({ status: HttpStatus.GONE, description: 'The link expired, was revoked or completed', ...PAGE }),
  );

/** The setup session's routes: its cookie alone opens them. */
export const ApiSetupRoutes = (tag: string) =>
  applyDecorators(
    ApiTags(tag),
    ApiSetupSession(),
    ApiErrorResponse(
      HttpStatus.UNAUTHORIZED,
      'No setup session (an org session alone is none), or its link is no longer open, or the organisation is suspended',
      [UNAUTHORIZED_BODY],
    ),
  );

/** 403 SETUP_INTENT_NOT_GRANTED, beside the route's other 403s. */
export const intentRefusal = () =>
  setupRefusals(HttpStatus.FORBIDDEN, 'The link does not grant this step, or does not allow this action', [
    SETUP_ERRORS.intentNotGranted,
    SETUP_ERRORS.notAllowed,
  ]);

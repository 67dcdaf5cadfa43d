import { DiscoverBody, DiscoverPipe } from './dto/sso-bodies';
import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { FailureResponse } from '../common/failure-response';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { Caller, CurrentCaller } from '../auth/caller';
import { SessionGuard } from '../auth/session.guard';
import { SIGN_OUT_PATH } from '../sessions/me-sessions.controller';
import { SsoConfiguredGuard } from './sso-configured.guard';
import { sendSignedInPage } from './sso-signed-in-page';
import { SsoDiscoverLimitGuard } from './sso-discover-limit.guard';
import { sendSamlPostPage } from './saml/saml-post-page';
import { Browser, SignedIn, SsoSignInService, TestedSignIn } from './sso-sign-in.service';
import { SsoStartService } from './sso-start.service';
import { ApiDiscover, ApiSsoDiscovery } from './sso.docs';
import {
  ApiOidcCallback,
  ApiSamlAcs,
  ApiSamlMetadata,
  ApiSamlPostPage,
  ApiSignedInPage,
  ApiSsoBrowser,
  ApiSsoStart,
} from './sso-browser.docs';
import { SSO_FAILURES } from './sso.messages';

/** Where SAML's routes live: the ACS reads a form body, which app.setup parses on this path only. */
export const SAML_BASE_PATH = '/sso/saml';
export const SAML_FORM_LIMIT_BYTES = 1024 * 1024;

/** Which organisation signs an e-mail in by single sign-on: no session. */
@Controller('api/sso')
@ApiSsoDiscovery()
@UseGuards(SsoConfiguredGuard)
export class SsoDiscoveryController {
  constructor(
    private readonly starts: SsoStartService,
    private readonly config: AppConfig,
  ) {}

  @Post('discover')
  @HttpCode(HttpStatus.OK)
  @UseGuards(SsoDiscoverLimitGuard)
  @ApiDiscover()
  @FailureResponse({ error: SSO_FAILURES.signIn })
  discoverSso(@Body(DiscoverPipe) body: DiscoverBody, @RequestOrigin() origin: string) {
    return this.starts.discover(body.email, this.config.publicBaseUrl ?? origin);
  }
}

/**
 * The browser's side of a sign-in: the start, a redirect to the provider, and the provider's
 * redirect back. Redirects, not an API: browser routes in the OpenAPI document (docs/sso.md describes them).
 */
@Controller('sso')
@ApiSsoBrowser()
@UseGuards(SsoConfiguredGuard)
export class SsoBrowserController {
  constructor(
    private readonly starts: SsoStartService,
    private readonly signIns: SsoSignInService,
    private readonly config: AppConfig,
  ) {}

  @Get('start')
  @ApiSsoStart()
  @FailureResponse({ error: SSO_FAILURES.signIn })
  async startSso(@Query() query: Record<string, unknown>, @RequestOrigin() origin: string, @Res() response: Response) {
    const location = await this.starts.start(query, this.config.publicBaseUrl ?? origin);
    response.redirect(HttpStatus.FOUND, location);
  }

  /** Where a sign-in without returnTo lands when SSO_DEFAULT_RETURN_TO is unset: who is signed in, and a sign-out. */
  @Get('signed-in')
  @UseGuards(SessionGuard)
  @ApiSignedInPage()
  @FailureResponse({ error: SSO_FAILURES.signIn })
  async signedInPage(@CurrentCaller() caller: Caller | undefined, @Res() response: Response) {
    sendSignedInPage(response, await this.starts.signedIn(caller), SIGN_OUT_PATH);
  }

  @Get('oidc/:id/callback')
  @ApiOidcCallback()
  @FailureResponse({ error: SSO_FAILURES.signIn })
  async oidcCallback(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @RequestOrigin() origin: string,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const base = this.config.publicBaseUrl ?? origin;
    answer(response, await this.signIns.oidcCallback(id, query, base, browserOf(request)));
  }

  /** The page that posts a pending sign-in's AuthnRequest to a provider that takes HTTP-POST only. */
  @Get('saml/:id/requests/:requestId')
  @ApiSamlPostPage()
  @FailureResponse({ error: SSO_FAILURES.signIn })
  async samlPostPage(
    @Param('id') id: string,
    @Param('requestId') requestId: string,
    @RequestOrigin() origin: string,
    @Res() response: Response,
  ) {
    sendSamlPostPage(response, await this.starts.samlPost(id, requestId, this.config.publicBaseUrl ?? origin));
  }

  /** The SP metadata that an owner gives the provider (or the provider reads). */
  @Get('saml/:id/metadata')
  @ApiSamlMetadata()
  @FailureResponse({ error: SSO_FAILURES.signIn })
  async samlMetadata(@Param('id') id: string, @RequestOrigin() origin: string, @Res() response: Response) {
    const xml = await this.starts.serviceProviderMetadata(id, this.config.publicBaseUrl ?? origin);
    response.type('application/samlmetadata+xml').send(xml);
  }

  /** The assertion consumer service: the provider's form POST (the one form body this service reads). */
  @Post('saml/:id/acs')
  @ApiSamlAcs()
  @FailureResponse({ error: SSO_FAILURES.signIn })
  async samlAcs(
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestOrigin() origin: string,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const base = this.config.publicBaseUrl ?? origin;
    answer(response, await this.signIns.samlCallback(id, fields, base, browserOf(request)));
  }
}

const browserOf = (request: Request): Browser => ({
  secure: request.secure,
  userAgent: request.headers['user-agent'] ?? null,
  ip: request.ip ?? null,
});

/** A test sign-in's outcome as JSON; a sign-in's redirect with the session cookie. */
function answer(response: Response, outcome: SignedIn | TestedSignIn): void {
  response.setHeader('Cache-Control', 'no-store');
  if ('test' in outcome) {
    response.status(HttpStatus.OK).json({ success: true, ...outcome });
    return;
  }
  response.setHeader('Set-Cookie', outcome.cookie);
  response.redirect(HttpStatus.FOUND, outcome.location);
}

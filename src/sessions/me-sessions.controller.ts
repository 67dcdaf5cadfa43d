import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Caller, CurrentCaller } from '../auth/caller';
import { sessionCookie } from '../auth/session-token';
import { SessionGuard } from '../auth/session.guard';
import { ApiError } from '../common/api-error';
import { FailureResponse } from '../common/failure-response';
import { UNAUTHORIZED } from '../common/messages';
import { RequestOrigin } from '../common/request-origin';
import { acceptedReturnTo, RETURN_REFUSED } from '../common/return-to';
import { AppConfig } from '../config/app-config';
import { SessionsResponse } from './dto/sessions.response';
import { ApiMySessions, ApiRevokeMySession, ApiRevokeMySessions, ApiSignOut } from './sessions.docs';
import { SESSION_ERRORS, SESSION_FAILURES, sessionRefusal } from './sessions.messages';
import { SessionsService } from './sessions.service';

/** Where a browser's form may post a sign-out (the one form body besides SAML's that this service reads). */
export const SIGN_OUT_PATH = '/api/me/sign-out';

const signedIn = (caller: Caller | undefined): Caller => {
  if (!caller) throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
  return caller;
};

/** The signed-in person's sessions (docs/sessions.md): sign-out, the list, and ending them. */
@Controller('api/me')
@UseGuards(SessionGuard)
export class MeSessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Ends the current session and clears the cookie with the attributes it was set with. A form post
   * (a browser) is sent on to returnTo, or to the OIDC provider's end-session endpoint.
   */
  @Post('sign-out')
  @ApiSignOut()
  @FailureResponse({ error: SESSION_FAILURES.signOut })
  async signOut(
    @CurrentCaller() caller: Caller | undefined,
    @Body() body: unknown,
    @RequestOrigin() origin: string,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const base = this.config.publicBaseUrl ?? origin;
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const returnTo = acceptedReturnTo(fields.returnTo, [new URL(base).origin, ...this.config.sso.returnOrigins]);
    if (returnTo === null) throw sessionRefusal(HttpStatus.BAD_REQUEST, SESSION_ERRORS.returnRefused, RETURN_REFUSED);
    const back = new URL(returnTo, base).href;
    const provider = await this.sessions.signOut(caller);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Set-Cookie', sessionCookie(this.config.sessionCookieName, '', 0, request.secure));
    const providerSignOutUrl = provider && rpInitiatedLogout(provider, back);
    if (request.is('application/x-www-form-urlencoded')) {
      response.redirect(HttpStatus.FOUND, providerSignOutUrl ?? back);
      return;
    }
    if (providerSignOutUrl) response.status(HttpStatus.OK).json({ providerSignOutUrl });
    else response.status(HttpStatus.NO_CONTENT).end();
  }

  @Get('sessions')
  @ApiMySessions(SessionsResponse)
  @FailureResponse({ error: SESSION_FAILURES.list })
  listMySessions(@CurrentCaller() caller: Caller | undefined): Promise<SessionsResponse> {
    const me = signedIn(caller);
    return this.sessions.list(me.id, me.sessionId);
  }

  /** Every session of the caller's, and a "not before" for the tokens without `sid` (sign out everywhere). */
  @Delete('sessions')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiRevokeMySessions()
  @FailureResponse({ error: SESSION_FAILURES.revoke })
  async revokeMySessions(@CurrentCaller() caller: Caller | undefined): Promise<void> {
    await this.sessions.revokeAllOwn(signedIn(caller));
  }

  @Delete('sessions/:id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiRevokeMySession()
  @FailureResponse({ error: SESSION_FAILURES.revoke })
  async revokeMySession(@CurrentCaller() caller: Caller | undefined, @Param('id') id: string): Promise<void> {
    await this.sessions.revokeOwn(signedIn(caller), id);
  }
}

/** RP-Initiated Logout 1.0: the end-session endpoint with client_id and post_logout_redirect_uri. */
function rpInitiatedLogout(provider: { clientId: string; endSessionEndpoint: string }, back: string): string {
  const url = new URL(provider.endSessionEndpoint);
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('post_logout_redirect_uri', back);
  return url.href;
}

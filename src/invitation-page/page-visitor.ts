import type { Request } from 'express';
import { Caller } from '../auth/caller';
import { requestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { invitationLink } from '../mail/invitation-message';

/** Who opened the page, as far as the page acts on it. */
export interface PageVisitor {
  /** The signed-in visitor: the page joins them. Absent without a session, or when the session may not act here. */
  caller?: Caller;
  /** Where to sign in, with this page as `return_to`: set when SIGN_IN_URL is. */
  signInUrl?: string;
}

/**
 * A request that a browser sent from another site. The page's Join acts on the visitor's session,
 * so another site's form must not be able to submit it (CSRF). Browsers say where a request
 * comes from in Sec-Fetch-Site; one that does not send it says it in Origin, which must be this
 * page's own (a form POST from the page itself has `Origin: null` under its no-referrer policy, and
 * those browsers send Sec-Fetch-Site). A request that carries neither comes from no browser.
 */
export function isCrossSite(request: Pick<Request, 'headers'>): boolean {
  const { origin, host } = request.headers;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true; // `null`, or not a URL at all
  }
}

/**
 * The sign-in address, back to this page. The page's address is PUBLIC_BASE_URL's, or the
 * request's, whose Host ALLOWED_HOSTS has vetted (SIGN_IN_URL requires one of them): the return
 * address is never a host that a request made up.
 */
export function signInLink(config: AppConfig, request: Pick<Request, 'headers'>, token: string): string | undefined {
  if (!config.signInUrl) return undefined;
  const link = new URL(config.signInUrl);
  link.searchParams.set('return_to', invitationLink(config.publicBaseUrl ?? requestOrigin(request.headers), token));
  return link.toString();
}

/** The visitor of a request to the page; `acting`: the request changes state (POST), so a cross-site one's session is not used. */
export function pageVisitor(
  config: AppConfig,
  request: Pick<Request, 'headers'>,
  caller: Caller | undefined,
  token: string,
  acting: boolean,
): PageVisitor {
  const signInUrl = signInLink(config, request, token);
  const usable = caller && !(acting && isCrossSite(request)) ? caller : undefined;
  return { ...(usable && { caller: usable }), ...(signInUrl && { signInUrl }) };
}

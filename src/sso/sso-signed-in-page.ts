import type { Response } from 'express';
import { html } from '../common/html';
import { pageHeaders } from '../common/page-headers';
import { SIGNED_IN_PATH } from './sso-protocol';

/** Who the signed-in page shows: the session's person and organisation (none: in no active one), or nobody. */
export type SignedInView = { email: string; organisation: string | null } | null;

/** The page's text: its words declared once. */
export const SIGNED_IN_PAGE = {
  title: 'Signed in',
  signedInAs: 'Signed in as',
  to: 'to',
  signOut: 'Sign out',
  signedOut: 'You are not signed in.',
} as const;

/**
 * GET /sso/signed-in, where a sign-in without returnTo lands when SSO_DEFAULT_RETURN_TO is unset
 * (docs/sso.md): "Signed in as … to …" and a button whose form posts to POST /api/me/sign-out (the
 * session's cookie goes with it; SameSite=Lax lets a top-level form post through), back to this
 * page. No script and no style. The policy names no form-action: a sign-out of a provider's session
 * is sent on to its end-session endpoint, a redirect that form-action would stop.
 */
export function sendSignedInPage(response: Response, view: SignedInView, signOutPath: string): void {
  const body = view
    ? html`<h1>${SIGNED_IN_PAGE.title}</h1>
<p>${SIGNED_IN_PAGE.signedInAs} <strong>${view.email}</strong>${view.organisation && html` ${SIGNED_IN_PAGE.to} <strong>${view.organisation}</strong>`}.</p>
<form method="post" action="${signOutPath}"><input type="hidden" name="returnTo" value="${SIGNED_IN_PATH}"><button type="submit">${SIGNED_IN_PAGE.signOut}</button></form>`
    : html`<h1>${SIGNED_IN_PAGE.title}</h1>
<p>${SIGNED_IN_PAGE.signedOut}</p>`;
  const page = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${SIGNED_IN_PAGE.title}</title></head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
  response.status(200).set(pageHeaders([])).type('html').send(page.markup);
}

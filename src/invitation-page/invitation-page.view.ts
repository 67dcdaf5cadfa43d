import type { Response } from 'express';
import { html, SafeHtml } from '../common/html';
import { pageHeaders, pageNonce } from '../common/page-headers';

/**
 * What the invitation view offers: without `action`, the spec's accept (no session, no SIGN_IN_URL);
 * `join` for a signed-in visitor with the invited address; a link to sign in for a visitor without a session.
 */
export type InvitationAction = 'join' | { signInUrl: string };

/** What the page shows: the invitation, the result of accepting or joining, or why it cannot be used. */
export type InvitationPageView =
  | { kind: 'invitation'; tenantName: string; email: string; role: string; expiresAt: Date; action?: InvitationAction }
  | { kind: 'accepted'; tenantName: string; role: string }
  /** `pending`: cognito mode, the user pool has yet to take the membership. */
  | { kind: 'joined'; tenantName: string; role: string; pending: boolean }
  /** Signed in with another address (or none): the invited one is not shown. */
  | { kind: 'other-address'; signedInAs: string | null; signInUrl?: string }
  | { kind: 'not-verified' }
  | { kind: 'member-elsewhere' }
  | { kind: 'email-in-use' }
  | { kind: 'already-used' }
  | { kind: 'expired' }
  | { kind: 'invalid' }
  | { kind: 'suspended' }
  | { kind: 'failed' };

/** A view and the HTTP status it is served with (the status of the API answer behind it). */
export interface InvitationPage {
  status: number;
  view: InvitationPageView;
}

export const FAILED_MESSAGE = 'Something went wrong, try again';
export const ACCEPT_BUTTON = 'Accept invitation';
export const JOIN_BUTTON = 'Accept and join';
export const SIGN_IN_LINK = 'Sign in to accept';

/** The invitation's one way forward: the form's button, or the link to sign in. */
function actionOf(action: InvitationAction | undefined) {
  if (typeof action === 'object') return html`<p><a class="button" href="${action.signInUrl}">${SIGN_IN_LINK}</a></p>`;
  return html`<form method="post" action="">
  <button type="submit">${action === 'join' ? JOIN_BUTTON : ACCEPT_BUTTON}</button>
</form>`;
}

const EXPIRY_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** The title (also the one h1) and the content under it. */
function contentOf(view: InvitationPageView): { title: string; body: SafeHtml } {
  switch (view.kind) {
    case 'invitation':
      return {
        title: `You are invited to join ${view.tenantName}`,
        body: html`<dl>
  <dt>Organisation</dt><dd>${view.tenantName}</dd>
  <dt>Invited address</dt><dd>${view.email}</dd>
  <dt>Role</dt><dd>${view.role}</dd>
  <dt>Expires</dt><dd><time datetime="${view.expiresAt.toISOString()}">${EXPIRY_FORMAT.format(view.expiresAt)} UTC</time></dd>
</dl>
${actionOf(view.action)}`,
      };
    case 'accepted':
      // The spec's accept makes nobody a member: the page does not say it did.
      return {
        title: 'Invitation accepted',
        body: html`<p>The invitation to join <strong>${view.tenantName}</strong> as ${view.role} is accepted.</p>
<p>You can close this page.</p>`,
      };
    case 'joined':
      return {
        title: `You are now a member of ${view.tenantName}`,
        body: html`<p>You joined <strong>${view.tenantName}</strong> as ${view.role}.</p>
${
  view.pending
    ? html`<p>Your access is still being set up: \
sign in again in a few minutes to use it.</p>`
    : html`<p>Sign in again to use your new access.</p>`
}`,
      };
    case 'other-address':
      return {
        title: 'This invitation is for another address',
        body: html`<p>${
          view.signedInAs
            ? html`You are signed in as <strong>${view.signedInAs}</strong>.`
            : 'Your session has no e\u2011mail address.'
        } Sign in with the address \
that the invitation was sent to, then open this link again.</p>
${view.signInUrl && html`<p><a class="button" href="${view.signInUrl}">Sign in with another account</a></p>`}`,
      };
    case 'not-verified':
      return {
        title: 'Verify your e\u2011mail address first',
        body: html`<p>Your sign-in does not show your address as verified. Verify it with \
your sign-in provider, then open this link again.</p>`,
      };
    case 'member-elsewhere':
      return {
        title: 'You are already a member of another organisation',
        body: html`<p>An account belongs to one organisation. Ask an owner or admin of yours \
to remove you first, or sign in with another account.</p>`,
      };
    case 'email-in-use':
      return {
        title: 'Another account has this address',
        body: html`<p>Sign in with the account that has the invited address to join.</p>`,
      };
    case 'already-used':
      return {
        title: 'This invitation has already been accepted',
        body: html`<p>An invitation can be accepted only once. If that was not you, ask the organisation for a new invitation.</p>`,
      };
    case 'expired':
      return {
        title: 'This invitation has expired',
        body: html`<p>Ask the person who invited you to send a new invitation.</p>`,
      };
    case 'invalid':
      return {
        title: 'This invitation link is not valid',
        body: html`<p>It may be incomplete, or the invitation may have been withdrawn. Check that you opened \
the whole link from the e\u2011mail, or ask for a new invitation.</p>`,
      };
    case 'suspended':
      return {
        title: 'This organisation is suspended',
        body: html`<p>Its invitations cannot be accepted for now. Try this link again later, or ask the person who invited you.</p>`,
      };
    case 'failed':
      return {
        title: FAILED_MESSAGE,
        body: html`<p>The invitation could not be read or accepted just now.</p>
<p><a href="">Try again</a></p>`,
      };
  }
}

const STYLE = `
:root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; color: #1f2937; background: #f3f4f6; }
body { margin: 0; padding: 1rem; }
main { box-sizing: border-box; max-width: 34rem; margin: 8vh auto 0; padding: 1.5rem; \
background: #fff; border-radius: .75rem; box-shadow: 0 1px 3px rgb(0 0 0 / 15%); }
h1 { margin: 0 0 1rem; font-size: 1.5rem; line-height: 1.25; overflow-wrap: anywhere; }
h1:focus { outline: none; }
p { margin: 0 0 1rem; overflow-wrap: anywhere; }
main > :last-child { margin-bottom: 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .5rem 1rem; margin: 0 0 1.5rem; }
dt { font-weight: 600; color: #4b5563; }
dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; gap: 0; } dd { margin-bottom: .75rem; } }
button { width: 100%; padding: .75rem 1rem; font: inherit; font-weight: 600; \
color: #fff; background: #1d4ed8; border: 0; border-radius: .5rem; cursor: pointer; }
button:hover { background: #1e40af; }
button:disabled { background: #4b5563; cursor: progress; }
a { color: #1d4ed8; }
a.button { display: block; box-sizing: border-box; width: 100%; padding: .75rem 1rem; font-weight: 600; \
text-align: center; text-decoration: none; color: #fff; background: #1d4ed8; border-radius: .5rem; }
a.button:hover { background: #1e40af; }
button:focus-visible, a:focus-visible { outline: 3px solid #b45309; outline-offset: 3px; }
`;

/**
 * With JavaScript, Accept posts to the same URL in the background and puts the answer's <main>
 * in place: no second submission, no "resend the form?" on reload, focus on the result's
 * heading. Without it (or when that fails), the form posts as a plain form. The session cookie
 * goes along: a signed-in invitee joins.
 */
const SCRIPT = `
(() => {
  const form = document.querySelector('form');
  if (!form || !window.fetch) return;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    button.textContent = 'Accepting…';
    try {
      const response = await fetch(form.action, { method: 'POST', credentials: 'same-origin' });
      if (!/^text\\/html/.test(response.headers.get('content-type') || '')) throw new Error('not a page');
      // A template's content is inert: the answer's style and script are neither applied nor run.
      const answer = document.createElement('template');
      answer.innerHTML = await response.text();
      document.title = answer.content.querySelector('title').textContent;
      document.querySelector('main').replaceWith(answer.content.querySelector('main'));
      document.querySelector('h1').focus();
    } catch {
      form.submit();
    }
  });
})();
`;

export function renderInvitationPage(view: InvitationPageView, nonce: string): string {
  const { title, body } = contentOf(view);
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style nonce="${nonce}">${new SafeHtml(STYLE)}</style>
</head>
<body>
<main>
<h1 tabindex="-1">${title}</h1>
${body}
</main>
<script nonce="${nonce}">${new SafeHtml(SCRIPT)}</script>
</body>
</html>
`.markup;
}

/**
 * Headers of the page: a policy that runs only this response's own script and style (by nonce)
 * and lets it post only to this origin; the token in the URL never goes out as a Referer; the
 * page is neither cached nor indexed.
 */
export function invitationPageHeaders(nonce: string): Record<string, string> {
  return pageHeaders([
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "form-action 'self'",
  ]);
}

export function sendInvitationPage(response: Response, page: InvitationPage): void {
  const nonce = pageNonce();
  response
    .status(page.status)
    .set(invitationPageHeaders(nonce))
    .type('html')
    .send(renderInvitationPage(page.view, nonce));
}

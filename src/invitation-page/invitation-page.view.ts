import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { html, SafeHtml } from '../common/html';

/** What the page shows: the invitation, the result of accepting it, or why it cannot be used. */
export type InvitationPageView =
  | { kind: 'invitation'; tenantName: string; email: string; role: string; expiresAt: Date }
  | { kind: 'accepted'; tenantName: string; role: string }
  | { kind: 'already-used' }
  | { kind: 'expired' }
  | { kind: 'invalid' }
  | { kind: 'failed' };

/** A view and the HTTP status it is served with (the status of the API answer behind it). */
export interface InvitationPage {
  status: number;
  view: InvitationPageView;
}

export const FAILED_MESSAGE = 'Something went wrong, try again';

const EXPIRY_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** The title (also the one h1) and the content under it. */
function contentOf(view: InvitationPageView): { title: string; body: SafeHtml } {
  switch (view.kind) {
    case 'invitation':
      return {
        title: `You are invited to join ${view.tenantName}`,
        body: html`<dl>
            <dt>Organisation</dt>
            <dd>${view.tenantName}</dd>
            <dt>Invited address</dt>
            <dd>${view.email}</dd>
            <dt>Role</dt>
            <dd>${view.role}</dd>
            <dt>Expires</dt>
            <dd><time datetime="${view.expiresAt.toISOString()}">${EXPIRY_FORMAT.format(view.expiresAt)} UTC</time></dd>
          </dl>
          <form method="post" action="">
            <button type="submit">Accept invitation</button>
          </form>`,
      };
    case 'accepted':
      return {
        title: 'Invitation accepted',
        body: html`<p>You have joined <strong>${view.tenantName}</strong> as ${view.role}.</p>
          <p>You can close this page.</p>`,
      };
    case 'already-used':
      return {
        title: 'This invitation has already been accepted',
        body: html`<p>
          An invitation can be accepted only once. If that was not you, ask the organisation for a new invitation.
        </p>`,
      };
    case 'expired':
      return {
        title: 'This invitation has expired',
        body: html`<p>Ask the person who invited you to send a new invitation.</p>`,
      };
    case 'invalid':
      return {
        title: 'This invitation link is not valid',
        body: html`<p>
          It may be incomplete, or the invitation may have been withdrawn. Check that you opened the whole link from the
          e‑mail, or ask for a new invitation.
        </p>`,
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
main { box-sizing: border-box; max-width: 34rem; margin: 8vh auto 0; padding: 1.5rem; background: #fff; border-radius: .75rem; box-shadow: 0 1px 3px rgb(0 0 0 / 15%); }
h1 { margin: 0 0 1rem; font-size: 1.5rem; line-height: 1.25; overflow-wrap: anywhere; }
h1:focus { outline: none; }
p { margin: 0 0 1rem; overflow-wrap: anywhere; }
main > :last-child { margin-bottom: 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .5rem 1rem; margin: 0 0 1.5rem; }
dt { font-weight: 600; color: #4b5563; }
dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; gap: 0; } dd { margin-bottom: .75rem; } }
button { width: 100%; padding: .75rem 1rem; font: inherit; font-weight: 600; color: #fff; background: #1d4ed8; border: 0; border-radius: .5rem; cursor: pointer; }
button:hover { background: #1e40af; }
button:disabled { background: #4b5563; cursor: progress; }
a { color: #1d4ed8; }
button:focus-visible, a:focus-visible { outline: 3px solid #b45309; outline-offset: 3px; }
`;

/**
 * With JavaScript, Accept posts to the same URL in the background and puts the answer's <main>
 * in place: no second submission, no "resend the form?" on reload, focus on the result's
 * heading. Without it (or when that fails), the form posts as a plain form.
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
      const response = await fetch(form.action, { method: 'POST', credentials: 'omit' });
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
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style nonce="${nonce}">
          ${new SafeHtml(STYLE)}
        </style>
      </head>
      <body>
        <main>
          <h1 tabindex="-1">${title}</h1>
          ${body}
        </main>
        <script nonce="${nonce}">
          ${new SafeHtml(SCRIPT)};
        </script>
      </body>
    </html> `.markup;
}

/**
 * Headers of the page: a policy that runs only this response's own script and style (by nonce)
 * and lets it post only to this origin; the token in the URL never goes out as a Referer; the
 * page is neither cached nor indexed.
 */
export function invitationPageHeaders(nonce: string): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex',
  };
}

export function sendInvitationPage(response: Response, page: InvitationPage): void {
  const nonce = randomBytes(16).toString('base64');
  response
    .status(page.status)
    .set(invitationPageHeaders(nonce))
    .type('html')
    .send(renderInvitationPage(page.view, nonce));
}

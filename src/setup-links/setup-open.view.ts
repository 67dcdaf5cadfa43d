/**
 * The pages of `GET /setup/{token}` (docs/setup-links.md): the one that forwards an opened link to
 * `/setup` (a redirect would not carry the SameSite=Strict cookie it sets when the link came from a
 * mail client), and the one that says why a link does not open, with no detail of the organisation.
 */
import type { Response } from 'express';
import { html, SafeHtml } from '../common/html';
import { pageNonce } from '../common/page-headers';
import { invitationPageHeaders } from '../invitation-page/invitation-page.view';
import { SETUP_PAGE_PATH } from './setup-link';
import { SETUP_PAGE_WORDS } from './setup-links.messages';
import { LinkOpening } from './setup-sessions.service';

const STYLE = `body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;color:#1a1a1a}
main{max-width:36rem;margin:3rem auto;padding:0 1rem}
a{color:#0b57d0}`;

/** The status each opening is answered with. */
const STATUS: Record<LinkOpening['kind'], number> = {
  opened: 200,
  invalid: 404,
  expired: 410,
  revoked: 410,
  completed: 410,
  suspended: 403,
};

function page(title: string, body: SafeHtml, nonce: string, head: SafeHtml = html``): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}<title>${title}</title>
<style nonce="${nonce}">${new SafeHtml(STYLE)}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.markup;
}

export function renderOpening(opening: LinkOpening, nonce: string): string {
  if (opening.kind === 'opened')
    return page(
      SETUP_PAGE_WORDS.forwardTitle,
      html`<p>${SETUP_PAGE_WORDS.forwardBody}</p>
<p><a href="${SETUP_PAGE_PATH}">${SETUP_PAGE_WORDS.forwardLink}</a></p>`,
      nonce,
      html`<meta http-equiv="refresh" content="0; url=${SETUP_PAGE_PATH}">
`,
    );
  const { title, body } = SETUP_PAGE_WORDS[opening.kind];
  return page(title, html`<p>${body}</p>`, nonce);
}

/** The page, with the invitation page's headers (CSP, no Referer, no caching, no indexing) and, when opened, the session's cookie. */
export function sendOpening(response: Response, opening: LinkOpening): void {
  const nonce = pageNonce();
  response.status(STATUS[opening.kind]).set(invitationPageHeaders(nonce));
  if (opening.kind === 'opened') response.append('Set-Cookie', opening.cookie);
  response.type('html').send(renderOpening(opening, nonce));
}

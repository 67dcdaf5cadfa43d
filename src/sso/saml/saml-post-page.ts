import type { Response } from 'express';
import { html } from '../../common/html';
import { pageHeaders, pageNonce } from '../../common/page-headers';

/** A form to post: the provider's SSO URL and the AuthnRequest's fields. */
export interface SamlPostForm {
  action: string;
  fields: Record<string, string>;
}

/**
 * The page that carries an AuthnRequest to a provider that takes HTTP-POST only: a form that its
 * one script (by nonce) submits at once, with a button for a browser without scripts. The policy
 * lets it run that script only and post only to the provider; nothing is cached.
 */
export function sendSamlPostPage(response: Response, form: SamlPostForm): void {
  const nonce = pageNonce();
  const inputs = Object.entries(form.fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  const page = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Signing in</title></head>
<body>
<main>
<h1>Signing in</h1>
<form method="post" action="${form.action}">${inputs}<button type="submit">Continue to your sign-in page</button></form>
</main>
<script nonce="${nonce}">document.forms[0].submit();</script>
</body>
</html>
`;
  response
    .status(200)
    .set(pageHeaders([`script-src 'nonce-${nonce}'`, `form-action ${new URL(form.action).origin}`]))
    .type('html')
    .send(page.markup);
}

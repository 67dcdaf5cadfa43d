/**
 * The page at `/setup` that an opened setup link leads to (docs/setup-links.md, item 4 of issue 54):
 * for now only the landing of the opening's forward; the pages of the steps replace its body.
 */
import type { Response } from 'express';
import { html } from '../common/html';
import { pageNonce } from '../common/page-headers';
import { invitationPageHeaders } from '../invitation-page/invitation-page.view';

export function sendSetupPage(response: Response): void {
  const nonce = pageNonce();
  response
    .status(200)
    .set(invitationPageHeaders(nonce))
    .type('html')
    .send(
      html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Setup</title>
</head>
<body>
<main>
<h1>Setup</h1>
</main>
</body>
</html>
`.markup,
    );
}

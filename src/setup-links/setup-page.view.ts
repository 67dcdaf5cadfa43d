/**
 * The page at `/setup` that an opened setup link leads to (docs/setup-links.md, "The pages"): the
 * granted steps in their order and Finish, rendered from the setup session; the page without one;
 * their headers; and the words its script says.
 */
import type { Response } from 'express';
import { html, SafeHtml } from '../common/html';
import { pageHeaders, pageNonce } from '../common/page-headers';
import { domainState, domainStep } from './page/setup-domain-step';
import {
  DOMAIN_TEXT,
  FALLBACK_TEXT,
  PAGE_TEXT,
  REFUSAL_TEXT,
  SCIM_TEXT,
  SSO_TEXT,
  DOMAIN_STATUS_TEXT,
  FINISHED_TEXT,
  NO_SESSION_TEXT,
} from './page/setup-page.messages';
import {
  SetupIntent,
  SetupPageModel,
  stateBadge,
  StepState,
  TEST_ATTEMPT_PREFIX,
  timeOf,
} from './page/setup-page.parts';
import { scimState, scimStep } from './page/setup-scim-step';
import { ssoState, ssoStep } from './page/setup-sso-step';
import { SETUP_STYLE } from './page/setup-page.styles';

/** Where the page's script is served: outside /setup/, whose paths are link tokens. */
export const SETUP_SCRIPT_ROUTE = 'setup-assets';
export const SETUP_SCRIPT_PATH = `/${SETUP_SCRIPT_ROUTE}/setup-page.js`;

/** The steps in their order, whichever the link grants: domain, then single sign-on, then SCIM. */
const STEPS: { intent: SetupIntent; heading: string; state: (model: SetupPageModel) => StepState }[] = [
  { intent: 'domain', heading: DOMAIN_TEXT.heading, state: (model) => domainState(model.domains) },
  { intent: 'sso', heading: SSO_TEXT.heading, state: (model) => ssoState(model.connections) },
  { intent: 'scim', heading: SCIM_TEXT.heading, state: (model) => scimState(model.scimTokens) },
];

const RENDER: Record<SetupIntent, (model: SetupPageModel, number: number) => SafeHtml> = {
  domain: domainStep,
  sso: ssoStep,
  scim: scimStep,
};

/**
 * The words the script says, read from the page (a JSON block, which no policy runs): the
 * refusals' codes in words, and its own messages, `{name}` standing for what it fills in.
 */
export const SCRIPT_TEXT = {
  refusals: REFUSAL_TEXT,
  fallback: FALLBACK_TEXT,
  copied: PAGE_TEXT.copied('{what}'),
  copyFailed: PAGE_TEXT.copyFailed('{what}'),
  finishing: PAGE_TEXT.finishing,
  domainAdded: DOMAIN_TEXT.added('{domain}'),
  domainChecking: DOMAIN_TEXT.checking('{domain}'),
  domainProven: DOMAIN_STATUS_TEXT.verified,
  domainRemoved: DOMAIN_TEXT.removed('{domain}'),
  connectionSaved: SSO_TEXT.saved('{name}'),
  connectionUpdated: SSO_TEXT.updated('{name}'),
  connectionRemoved: SSO_TEXT.removed('{name}'),
  noMetadata: SSO_TEXT.noMetadata,
  fileUnreadable: SSO_TEXT.fileUnreadable,
  testPrefix: TEST_ATTEMPT_PREFIX,
  testOpened: SSO_TEXT.testOpened,
  testOpenLink: SSO_TEXT.testOpenLink,
  testTimedOut: SSO_TEXT.testTimedOut,
  secretShown: SCIM_TEXT.secretShown,
  mappingSaved: SCIM_TEXT.mappingSaved,
  finishedTitle: FINISHED_TEXT.title,
  finishedBody: FINISHED_TEXT.body,
};

/** JSON that may stand inside a script element: no `</script>`, no `<!--`. */
const scriptJson = (value: unknown) => new SafeHtml(JSON.stringify(value).replace(/</g, '\\u003c'));

/** The document around a page's main content, with its nonced style and, when given, its script. */
function documentOf(title: string, main: SafeHtml, nonce: string, script: SafeHtml | string = ''): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style nonce="${nonce}">${new SafeHtml(SETUP_STYLE)}</style>
</head>
<body>
<main>
${main}
</main>
${script}
</body>
</html>
`.markup;
}

export function renderSetupPage(model: SetupPageModel, nonce: string): string {
  const steps = STEPS.filter(({ intent }) => model.intents.includes(intent));
  const { name } = model.organisation;
  const main = html`<header>
<h1 tabindex="-1">${PAGE_TEXT.title(name)}</h1>
<p>${PAGE_TEXT.intro(name)}</p>
<p>${PAGE_TEXT.expires} ${timeOf(model.expiresAt)}.</p>
<noscript><p class="result error">${PAGE_TEXT.noScript}</p></noscript>
<ol class="steps">${steps.map(
    (step, i) =>
      html`<li><a href="#step-${step.intent}">${i + 1}. ${step.heading}</a> ${stateBadge(`progress-${step.intent}`, step.state(model))}</li>`,
  )}</ol>
</header>
${steps.map((step, i) => RENDER[step.intent](model, i + 1))}
<section class="step" id="step-finish" aria-labelledby="finish-heading">
<h2 id="finish-heading">${PAGE_TEXT.finishTitle}</h2>
<p>${PAGE_TEXT.finishIntro(name)}</p>
<p><button type="button" data-action="finish">${PAGE_TEXT.finishButton}</button></p>
<p class="result" id="finish-result" role="status" aria-live="polite"></p>
</section>`;
  const script = html`<script type="application/json" id="setup-text">${scriptJson(SCRIPT_TEXT)}</script>
<script type="module" nonce="${nonce}" src="${SETUP_SCRIPT_PATH}"></script>`;
  return documentOf(PAGE_TEXT.title(name), main, nonce, script);
}

/** Without a setup session: the way back in, and nothing of any organisation. */
export function renderNoSession(nonce: string): string {
  const main = html`<header>
<h1>${NO_SESSION_TEXT.title}</h1>
<p>${NO_SESSION_TEXT.body}</p>
</header>`;
  return documentOf(NO_SESSION_TEXT.title, main, nonce);
}

/**
 * The page's policy: its own script (by nonce, with the modules it imports) and style; calls to
 * this origin only (the JSON API); no form posts anywhere, no frames, no Referer, no caching.
 */
export function setupPageHeaders(nonce: string): Record<string, string> {
  return pageHeaders([
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "form-action 'none'",
  ]);
}

/** The page for the request's setup session; without one, 401 and the way back in. */
export function sendSetupPage(response: Response, model: SetupPageModel | null): void {
  const nonce = pageNonce();
  response
    .status(model ? 200 : 401)
    .set(setupPageHeaders(nonce))
    .type('html')
    .send(model ? renderSetupPage(model, nonce) : renderNoSession(nonce));
}

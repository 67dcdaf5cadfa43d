/** What the setup page is rendered from, and the markup its steps share: a step, a value to copy, a field. */
import { html, SafeHtml } from '../../common/html';
import { PAGE_TEXT } from './setup-page.messages';

export type SetupIntent = 'domain' | 'sso' | 'scim';

export interface SetupDomain {
  name: string;
  status: string;
  verification: { recordName: string; recordValue: string; expiresAt: string };
  lastCheck: { at: string; result: string } | null;
  verifiedAt: string | null;
}

export interface SetupConnection {
  id: string;
  type: string;
  name: string;
  status: string;
  oidc?: { issuer: string; clientId: string };
  saml?: { idpEntityId: string; idpSsoUrl: string; certificates: { notAfter: string }[] };
  sp: { entityId?: string; acsUrl?: string; metadataUrl?: string; redirectUri?: string };
}

export interface SetupAttempt {
  at: string;
  result: string;
  detail: string;
}

/** How the attempts log marks a test sign-in's attempt (SsoSignInService). */
export const TEST_ATTEMPT_PREFIX = 'test sign-in:';

export type MappedGroup = string | { role?: string; roles?: string[] };

/** What the setup page is rendered from: GET /api/setup's answer, and what the steps show beside it. */
export interface SetupPageModel {
  organisation: { id: string; name: string };
  intents: SetupIntent[];
  expiresAt: string;
  domains: SetupDomain[];
  connections: SetupConnection[];
  /** Each connection's latest test sign-in, by connection id. */
  lastTests: Record<string, SetupAttempt | undefined>;
  scimTokens: { id: string; createdAt: string; lastUsedAt: string | null }[];
  scimBaseUrl: string;
  roleMapping: Record<string, MappedGroup>;
}

export type StepState = 'done' | 'in-progress' | 'to-do';

const STATE_TEXT: Record<StepState, string> = {
  done: PAGE_TEXT.stateDone,
  'in-progress': PAGE_TEXT.stateInProgress,
  'to-do': PAGE_TEXT.stateToDo,
};

const TIME_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

export const timeOf = (iso: string) => html`<time datetime="${iso}">${TIME_FORMAT.format(new Date(iso))} UTC</time>`;

/** A step's state, as a badge that the script replaces with the step (`data-part`). */
export const stateBadge = (id: string, state: StepState) =>
  html`<span class="state state-${state}" id="${id}-state" data-part>${STATE_TEXT[state]}</span>`;

/**
 * A step: its heading (numbered, with its state), the part the script re-renders after a change
 * (`data-part`), and a live region outside it, so that a result is read out even as the part is replaced.
 */
export function stepSection(
  id: SetupIntent,
  number: number,
  heading: string,
  state: StepState,
  intro: string,
  body: SafeHtml,
): SafeHtml {
  return html`<section class="step" id="step-${id}" aria-labelledby="${id}-heading">
<h2 id="${id}-heading" tabindex="-1"><span class="number">${number}.</span> ${heading} ${stateBadge(id, state)}</h2>
<p>${intro}</p>
<div id="${id}-body" data-part>
${body}
</div>
<p class="result" id="${id}-result" role="status" aria-live="polite"></p>
</section>`;
}

/** A value to paste elsewhere, with its label and a copy button named after it. */
export const copyable = (id: string, label: string, value: string) =>
  html`<dt id="${id}-label">${label}</dt>
<dd><code id="${id}">${value}</code> <button type="button" class="copy" data-copy="${id}" aria-label="${PAGE_TEXT.copy} ${label}">${PAGE_TEXT.copy}</button></dd>`;

/** A labelled text input. */
export const textField = (
  id: string,
  label: string,
  { type = 'text', hint, required = false }: { type?: string; hint?: string; required?: boolean } = {},
) =>
  html`<p class="field"><label for="${id}">${label}</label>
${hint && html`<span class="hint" id="${id}-hint">${hint}</span>`}
<input id="${id}" name="${id}" type="${type}" autocomplete="off" spellcheck="false"${
    hint ? html` aria-describedby="${id}-hint"` : ''
  }${required ? html` required` : ''}></p>`;

/** An ordered list of steps at a provider. */
export const stepsList = (steps: string[]) =>
  html`<ol class="guide">${steps.map((step) => html`<li>${step}</li>`)}</ol>`;

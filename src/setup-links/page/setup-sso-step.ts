/**
 * The setup page's single sign-on step: each connection with the values to enter at the provider and
 * its latest test sign-in, and a new connection: the provider, the protocol, its metadata or client.
 */
import { html, SafeHtml } from '../../common/html';
import { SSO_GUIDES, SSO_PROVIDERS, SsoProtocol, SsoProvider } from './setup-guides.messages';
import { CONNECTION_STATUS_TEXT, REFUSAL_TEXT, SSO_TEXT } from './setup-page.messages';
import {
  copyable,
  SetupAttempt,
  SetupConnection,
  SetupPageModel,
  StepState,
  stepSection,
  TEST_ATTEMPT_PREFIX,
  stepsList,
  textField,
  timeOf,
} from './setup-page.parts';

export function ssoState(connections: SetupConnection[]): StepState {
  if (connections.some((connection) => connection.status === 'active')) return 'done';
  return connections.length ? 'in-progress' : 'to-do';
}

const PROTOCOL_LABEL: Record<SsoProtocol, string> = { saml: SSO_TEXT.saml, oidc: SSO_TEXT.oidc };

/** The name the page gives a connection it makes: the provider and the protocol ("Okta (SAML 2.0)"). */
export const connectionName = (provider: SsoProvider, protocol: SsoProtocol) =>
  `${SSO_PROVIDERS.find(({ key }) => key === provider)!.label} (${PROTOCOL_LABEL[protocol]})`;

/** The guide of a connection: the provider its name says (as the page names them), else the protocol's generic one. */
function guideOf(connection: SetupConnection): string {
  const type = connection.type as SsoProtocol;
  const named = SSO_PROVIDERS.find(
    ({ key, protocols }) =>
      protocols.length > 1 && protocols.includes(type) && connection.name === connectionName(key, type),
  );
  return named ? `${named.key}-${type}` : type;
}

/** The provider's metadata: its URL, its file, or the XML (ids under `prefix`). */
const metadataFields = (prefix: string) => html`<p class="hint">${SSO_TEXT.metadataHint}</p>
${textField(`${prefix}-metadata-url`, SSO_TEXT.metadataUrlLabel, { type: 'url' })}
<p class="field"><label for="${prefix}-metadata-file">${SSO_TEXT.metadataFileLabel}</label>
<input id="${prefix}-metadata-file" type="file" accept=".xml,application/xml,text/xml"></p>
<p class="field"><label for="${prefix}-metadata-xml">${SSO_TEXT.metadataXmlLabel}</label>
<textarea id="${prefix}-metadata-xml" rows="4" spellcheck="false"></textarea></p>`;

const oidcFields = (prefix: string) => html`${textField(`${prefix}-issuer`, SSO_TEXT.issuerLabel, { type: 'url' })}
${textField(`${prefix}-client-id`, SSO_TEXT.clientIdLabel)}
${textField(`${prefix}-client-secret`, SSO_TEXT.clientSecretLabel, { type: 'password' })}`;

/** The values to enter at the provider, each with a copy button. */
function spValues(connection: SetupConnection): SafeHtml {
  const id = `connection-${connection.id}`;
  const { sp } = connection;
  if (connection.type === 'oidc') return copyable(`${id}-redirect-uri`, SSO_TEXT.redirectUri, sp.redirectUri ?? '');
  return html`${copyable(`${id}-entity-id`, SSO_TEXT.entityId, sp.entityId ?? '')}
${copyable(`${id}-acs-url`, SSO_TEXT.acsUrl, sp.acsUrl ?? '')}
${copyable(`${id}-metadata-url`, SSO_TEXT.spMetadataUrl, sp.metadataUrl ?? '')}`;
}

/** What the connection holds of the provider (never the client secret). */
function providerValues(connection: SetupConnection): SafeHtml {
  const rows: [string, SafeHtml | string][] = connection.saml
    ? [
        [SSO_TEXT.idpEntityId, connection.saml.idpEntityId],
        [SSO_TEXT.idpSsoUrl, connection.saml.idpSsoUrl],
        [
          SSO_TEXT.certificates,
          html`${connection.saml.certificates.map((c, i) => html`${i ? ', ' : ''}${timeOf(c.notAfter)}`)}`,
        ],
      ]
    : [
        [SSO_TEXT.issuer, connection.oidc?.issuer ?? ''],
        [SSO_TEXT.clientId, connection.oidc?.clientId ?? ''],
      ];
  return html`<details><summary>${SSO_TEXT.providerValues}</summary>
<dl class="values">${rows.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>
</details>`;
}

/**
 * The latest test sign-in: its result and, on a failure, the refusal in words and the exact check
 * that failed, as the attempts log has it (without the log's own "test sign-in:" mark).
 */
function lastTest(connection: SetupConnection, attempt: SetupAttempt | undefined): SafeHtml | string {
  if (!attempt) return '';
  const passed = attempt.result === 'ok';
  const detail = attempt.detail.startsWith(TEST_ATTEMPT_PREFIX)
    ? attempt.detail.slice(TEST_ATTEMPT_PREFIX.length).trim()
    : attempt.detail;
  const outcome = passed
    ? html`<strong>${SSO_TEXT.testPassed}</strong> ${detail}`
    : html`<strong>${SSO_TEXT.testFailed}</strong> ${REFUSAL_TEXT[attempt.result] ?? ''} ${SSO_TEXT.failedCheck} \
<code>${attempt.result}</code> ${detail}`;
  return html`<p class="test test-${passed ? 'ok' : 'failed'}" id="connection-${connection.id}-last-test">\
${SSO_TEXT.lastTest} (${timeOf(attempt.at)}): ${outcome}</p>`;
}

function connectionCard(connection: SetupConnection, attempt: SetupAttempt | undefined): SafeHtml {
  const id = `connection-${connection.id}`;
  const guide = SSO_GUIDES[guideOf(connection)];
  const update =
    connection.type === 'saml'
      ? html`<details><summary>${SSO_TEXT.updateMetadata}</summary>
<form data-action="update-connection" data-connection="${connection.id}" data-type="saml" novalidate>
${metadataFields(`${id}-update`)}
<button type="submit">${SSO_TEXT.updateButton}</button>
</form></details>`
      : html`<details><summary>${SSO_TEXT.updateSecret}</summary>
<form data-action="update-connection" data-connection="${connection.id}" data-type="oidc" novalidate>
${textField(`${id}-update-client-secret`, SSO_TEXT.clientSecretLabel, { type: 'password' })}
<button type="submit">${SSO_TEXT.updateButton}</button>
</form></details>`;
  return html`<article class="card" id="${id}" aria-labelledby="${id}-name">
<h3 id="${id}-name" tabindex="-1">${connection.name}</h3>
<p class="status status-${connection.status}">${SSO_TEXT.status}: ${CONNECTION_STATUS_TEXT[connection.status] ?? connection.status}.</p>
<p>${SSO_TEXT.valuesIntro}</p>
<dl class="values">
${spValues(connection)}
</dl>
${stepsList(guide.after)}
${providerValues(connection)}
${update}
<p>${SSO_TEXT.testIntro}</p>
<p class="actions"><button type="button" data-action="test-connection" data-connection="${connection.id}">${SSO_TEXT.testButton} \
<span class="visually-hidden">${connection.name}</span></button>
${
  connection.status === 'draft' &&
  html`<button type="button" class="secondary" data-action="remove-connection" data-connection="${connection.id}" \
data-name="${connection.name}">${SSO_TEXT.removeButton} <span class="visually-hidden">${connection.name}</span></button>`
}</p>
${lastTest(connection, attempt)}
</article>`;
}

const radio = (name: string, value: string, label: string, checked: boolean) =>
  html`<span class="choice"><input type="radio" name="${name}" id="${name}-${value}" value="${value}"${
    checked ? html` checked` : ''
  }> <label for="${name}-${value}">${label}</label></span>`;

/** A new connection: the provider, the protocol, the provider's steps, and its metadata or client. */
function newConnectionForm(): SafeHtml {
  const [first] = SSO_PROVIDERS;
  return html`<form class="add" id="sso-new" data-action="add-connection" novalidate>
<fieldset><legend>${SSO_TEXT.providerLegend}</legend>
${SSO_PROVIDERS.map(({ key, label }) => radio('sso-provider', key, label, key === first.key))}
</fieldset>
<fieldset id="sso-protocols"><legend>${SSO_TEXT.protocolLegend}</legend>
${radio('sso-protocol', 'saml', SSO_TEXT.saml, true)}
${radio('sso-protocol', 'oidc', SSO_TEXT.oidc, false)}
</fieldset>
${Object.entries(SSO_GUIDES).map(
  ([
    key,
    guide,
  ]) => html`<div class="provider-guide" data-guide="${key}"${key === `${first.key}-saml` ? '' : html` hidden`}>
${stepsList(guide.before)}
</div>`,
)}
<div data-protocol="saml">
${metadataFields('sso-new')}
</div>
<div data-protocol="oidc" hidden>
${oidcFields('sso-new')}
</div>
<button type="submit">${SSO_TEXT.saveButton}</button>
</form>`;
}

export function ssoStep(model: SetupPageModel, number: number): SafeHtml {
  const { connections } = model;
  const body = html`${connections.map((connection) => connectionCard(connection, model.lastTests[connection.id]))}
${
  connections.length
    ? html`<details class="add-another"><summary>${SSO_TEXT.addAnother}</summary>${newConnectionForm()}</details>`
    : newConnectionForm()
}`;
  return stepSection('sso', number, SSO_TEXT.heading, ssoState(connections), SSO_TEXT.intro, body);
}

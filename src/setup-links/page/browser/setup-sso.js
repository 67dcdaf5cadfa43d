// The single sign-on step: choose the provider, give its metadata or client, save, test a sign-in and say its result.
import { api, fill, refreshStep, Refused, say, text } from './setup-common.js';

const connections = '/api/setup/sso/connections';
const POLL_MS = 1500;
const TEST_WAIT_MS = 10 * 60 * 1000;

/** The provider and protocol chosen in the new connection's form. */
function choice(form) {
  const provider = form.querySelector('input[name="sso-provider"]:checked').value;
  const generic = provider === 'saml' || provider === 'oidc';
  const protocol = generic ? provider : form.querySelector('input[name="sso-protocol"]:checked').value;
  return {
    provider,
    protocol,
    generic,
    label: form.querySelector(`label[for="sso-provider-${provider}"]`).textContent,
  };
}

/** Shows the chosen provider's steps and its protocol's fields; the generic providers have one protocol. */
export function showChoice(form) {
  const { provider, protocol, generic } = choice(form);
  form.querySelector('#sso-protocols').hidden = generic;
  const guide = generic ? provider : `${provider}-${protocol}`;
  for (const element of form.querySelectorAll('[data-guide]')) element.hidden = element.dataset.guide !== guide;
  for (const element of form.querySelectorAll('[data-protocol]'))
    element.hidden = element.dataset.protocol !== protocol;
}

const readFile = (file) =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Refused(text.fileUnreadable));
    reader.readAsText(file);
  });

/** The SAML metadata given under `prefix`: its URL, its file, or the pasted XML, in that order. */
async function metadataOf(form, prefix) {
  const url = form.querySelector(`#${prefix}-metadata-url`).value.trim();
  if (url) return { metadataUrl: url };
  const [file] = form.querySelector(`#${prefix}-metadata-file`).files;
  if (file) return { metadataXml: await readFile(file) };
  const xml = form.querySelector(`#${prefix}-metadata-xml`).value.trim();
  if (xml) return { metadataXml: xml };
  throw new Refused(text.noMetadata);
}

const value = (form, id) => form.querySelector(`#${id}`).value.trim();

export async function addConnection(form) {
  const { protocol, label } = choice(form);
  const protocolLabel = form.querySelector(`label[for="sso-protocol-${protocol}"]`).textContent;
  const name = `${label} (${protocolLabel})`;
  const body =
    protocol === 'saml'
      ? { type: 'saml', name, ...(await metadataOf(form, 'sso-new')) }
      : {
          type: 'oidc',
          name,
          issuer: value(form, 'sso-new-issuer'),
          clientId: value(form, 'sso-new-client-id'),
          clientSecret: form.querySelector('#sso-new-client-secret').value,
        };
  const answer = await api('POST', connections, body);
  await refreshStep('sso', `#connection-${answer.connection.id}-name`);
  say('sso', fill(text.connectionSaved, { name: answer.connection.name }));
}

export async function updateConnection(form) {
  const id = form.dataset.connection;
  const prefix = `connection-${id}-update`;
  const body =
    form.dataset.type === 'saml'
      ? await metadataOf(form, prefix)
      : { clientSecret: form.querySelector(`#${prefix}-client-secret`).value };
  const answer = await api('PATCH', `${connections}/${id}`, body);
  await refreshStep('sso', `#connection-${id}-name`);
  say('sso', fill(text.connectionUpdated, { name: answer.connection.name }));
}

/** Removes a draft connection that this link made (the service refuses any other, in words). */
export async function removeConnection(button) {
  watching.delete(button.dataset.connection);
  await api('DELETE', `${connections}/${button.dataset.connection}`);
  await refreshStep('sso', '#sso-heading');
  say('sso', fill(text.connectionRemoved, { name: button.dataset.name }));
}

const testAttempts = async (id) =>
  (await api('GET', `${connections}/${id}/attempts`)).attempts.filter((a) => a.detail.startsWith(text.testPrefix));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The test each connection's page waits for: a new test of the connection replaces the one before. */
const watching = new Map();

/**
 * Waits for the test sign-in's own attempt (newer than `before`), then renders the connection again
 * and says the result and, on a failure, the attempt's exact reason, as the re-rendered connection shows it.
 */
async function watchTest(id, before) {
  const ticket = {};
  watching.set(id, ticket);
  const until = Date.now() + TEST_WAIT_MS;
  while (Date.now() < until) {
    await sleep(POLL_MS);
    if (watching.get(id) !== ticket) return;
    const [latest] = await testAttempts(id);
    if (!latest || (before && latest.at <= before.at)) continue;
    watching.delete(id);
    await refreshStep('sso', `#connection-${id}-name`);
    const shown = document.getElementById(`connection-${id}-last-test`);
    const failed = latest.result !== 'ok';
    say('sso', shown ? shown.textContent : `${latest.result}: ${latest.detail}`, {
      error: failed,
      shown: Boolean(shown),
    });
    return;
  }
  if (watching.get(id) === ticket) say('sso', text.testTimedOut, { error: true });
}

/**
 * "Test sign-in": the provider opens in a new tab (and a link to it, should no tab open), and the
 * page watches the connection's attempts for the test's own; the button is free again at once, so
 * that a test abandoned at the provider can be started again.
 */
export async function testConnection(button) {
  const id = button.dataset.connection;
  const [before] = await testAttempts(id);
  const { startUrl } = await api('POST', `${connections}/${id}/test`);
  window.open(startUrl, '_blank', 'noopener');
  const region = document.getElementById('sso-result');
  region.classList.remove('error', 'visually-hidden');
  region.textContent = `${text.testOpened} `;
  const link = Object.assign(document.createElement('a'), { href: startUrl, target: '_blank', rel: 'noopener' });
  link.textContent = text.testOpenLink;
  region.append(link);
  watchTest(id, before).catch((error) =>
    say('sso', error instanceof Refused ? error.message : text.fallback.failed, { error: true }),
  );
}

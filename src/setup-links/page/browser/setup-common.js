// What every step of the setup page's script shares: its words, the JSON API, the live regions, re-rendering.

/** The page's words (setup-page.view.ts, SCRIPT_TEXT), `{name}` standing for what is filled in. */
export const text = JSON.parse(document.getElementById('setup-text').textContent);

export const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, key) => values[key]);

/** A refusal said in words: its code's sentence and the check that failed; else the message it carries. */
export function refusalWords(status, body) {
  const code = body && typeof body.error === 'string' ? body.error : '';
  const reason = body && typeof body.reason === 'string' ? body.reason : '';
  let words = text.refusals[code];
  if (!words && code && /\s/.test(code)) words = code; // an {error} body's message is already words
  if (!words && status === 401) words = text.fallback.unauthorised;
  if (!words && status === 403) words = text.fallback.forbidden;
  if (!words) words = text.fallback.failed;
  return reason ? `${words} ${reason}` : words;
}

/** Thrown for a refusal: its words, for the step's live region. */
export class Refused extends Error {}

/** A call of /api/setup/*: the answer's body, or Refused with the refusal in words. */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Refused(text.fallback.unreachable);
  }
  const answer = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new Refused(refusalWords(response.status, answer));
  return answer;
}

/**
 * Says a result in a step's live region (`<intent>-result`); an error is marked as one. `shown`:
 * the step shows these words itself now, so that the region is only heard, not seen twice.
 */
export function say(intent, words, { error = false, shown = false } = {}) {
  const region = document.getElementById(`${intent}-result`);
  region.classList.toggle('error', error);
  region.classList.toggle('visually-hidden', shown);
  region.textContent = words;
}

/** Runs an action with its button disabled; a refusal (or any failure) is said in the step's region. */
export async function busy(intent, button, action) {
  if (button) button.disabled = true;
  try {
    await action();
  } catch (error) {
    say(intent, error instanceof Refused ? error.message : text.fallback.failed, { error: true });
  } finally {
    if (button && button.isConnected) button.disabled = false;
  }
}

/** The page as the service renders it now. */
async function freshPage() {
  const response = await fetch(location.pathname, { credentials: 'same-origin' });
  if (!/^text\/html/.test(response.headers.get('content-type') || '')) throw new Refused(text.fallback.failed);
  // A template's content is inert: its scripts neither run nor load.
  const page = document.createElement('template');
  page.innerHTML = await response.text();
  return page.content;
}

/**
 * Re-renders a step from the service: its body, its state and its state in the header. `focus`
 * (a selector) is where the focus goes in the new body; otherwise an element with the id of the
 * one that had it.
 */
export async function refreshStep(intent, focus) {
  const page = await freshPage();
  const focusedId = document.activeElement && document.activeElement.id;
  for (const id of [`${intent}-body`, `${intent}-state`, `progress-${intent}-state`]) {
    const fresh = page.getElementById(id);
    const current = document.getElementById(id);
    if (fresh && current) current.replaceWith(fresh);
  }
  const target = (focus && document.querySelector(focus)) || (focusedId && document.getElementById(focusedId));
  if (target) target.focus();
}

/** The page once the link is closed by Finish: what it says, in place of the steps, focus on its heading. */
export function showFinished() {
  const header = document.createElement('header');
  const heading = Object.assign(document.createElement('h1'), { tabIndex: -1, textContent: text.finishedTitle });
  header.append(heading, Object.assign(document.createElement('p'), { textContent: text.finishedBody }));
  document.querySelector('main').replaceChildren(header);
  document.title = text.finishedTitle;
  heading.focus();
}

/** The step whose section holds an element. */
export const intentOf = (element) => element.closest('section').id.replace(/^step-/, '');

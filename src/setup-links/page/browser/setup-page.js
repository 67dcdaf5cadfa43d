// The setup page's script: every button and form of the page, by delegation, so that re-rendered steps need no wiring.
import { api, busy, fill, intentOf, say, showFinished, text } from './setup-common.js';
import { addDomain, removeDomain, verifyDomain } from './setup-domain.js';
import { addConnection, removeConnection, showChoice, testConnection, updateConnection } from './setup-sso.js';
import { addGroup, makeToken, removeGroup, saveMapping } from './setup-scim.js';

/** Copies a value; says so (or that it could not) in the step's region. */
async function copy(button) {
  const value = document.getElementById(button.dataset.copy);
  const what = document.getElementById(`${button.dataset.copy}-label`).textContent;
  try {
    await navigator.clipboard.writeText(value.textContent);
    say(intentOf(button), fill(text.copied, { what }));
  } catch {
    getSelection().selectAllChildren(value);
    say(intentOf(button), fill(text.copyFailed, { what }), { error: true });
  }
}

async function finish(button) {
  const label = button.textContent;
  button.textContent = text.finishing;
  try {
    await api('POST', '/api/setup/complete');
  } finally {
    button.textContent = label;
  }
  showFinished();
}

const CLICKS = {
  'verify-domain': verifyDomain,
  'remove-domain': removeDomain,
  'remove-connection': removeConnection,
  'test-connection': testConnection,
  'make-token': makeToken,
  'add-group': addGroup,
  'remove-group': removeGroup,
  finish,
};
const SUBMITS = {
  'add-domain': addDomain,
  'add-connection': addConnection,
  'update-connection': updateConnection,
  'save-mapping': saveMapping,
};

document.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  if (!button) return;
  if (button.dataset.copy) return void copy(button);
  const action = CLICKS[button.dataset.action];
  if (action) void busy(intentOf(button), button, () => action(button));
});

document.addEventListener('submit', (event) => {
  const form = event.target;
  const action = SUBMITS[form.dataset.action];
  if (!action) return;
  event.preventDefault();
  void busy(intentOf(form), form.querySelector('button[type="submit"]'), () => action(form));
});

document.addEventListener('change', (event) => {
  const form = event.target.closest('#sso-new');
  if (form && event.target.type === 'radio') showChoice(form);
});

// For a person nothing changes; a test knows the script is running.
document.documentElement.dataset.setupReady = '';

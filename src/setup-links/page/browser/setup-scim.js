// The SCIM step: a token shown once, and the groups mapped to roles.
import { api, refreshStep, say, text } from './setup-common.js';

export async function makeToken() {
  const { token } = await api('POST', '/api/setup/scim/tokens');
  await refreshStep('scim');
  document.getElementById('scim-secret').textContent = token.secret;
  document.getElementById('scim-secret-box').hidden = false;
  document.querySelector('[data-copy="scim-secret"]').focus();
  say('scim', text.secretShown);
}

/** Numbers the rows again (their ids, labels and buttons' names end in the row's number). */
function renumber(list) {
  list.querySelectorAll('.mapping-row').forEach((row, i) => {
    const n = String(i + 1);
    for (const element of row.querySelectorAll('[id]')) element.id = element.id.replace(/\d+$/, n);
    for (const label of row.querySelectorAll('label')) {
      label.htmlFor = label.htmlFor.replace(/\d+$/, n);
      label.textContent = label.textContent.replace(/\d+$/, n);
    }
    const remove = row.querySelector('[data-action="remove-group"]');
    remove.setAttribute('aria-label', remove.getAttribute('aria-label').replace(/\d+$/, n));
  });
  const none = document.getElementById('scim-mapping-none');
  if (none) none.hidden = list.children.length > 0;
}

/** A new row, made from the template row that the page carries. */
export function addGroup() {
  const list = document.getElementById('scim-mapping');
  const row = document.getElementById('scim-row-template').content.firstElementChild.cloneNode(true);
  list.append(row);
  renumber(list);
  row.querySelector('input').focus();
}

export function removeGroup(button) {
  const list = document.getElementById('scim-mapping');
  const row = button.closest('.mapping-row');
  const next = row.nextElementSibling || row.previousElementSibling;
  row.remove();
  renumber(list);
  (next ? next.querySelector('input') : document.querySelector('[data-action="add-group"]')).focus();
}

/** The mapping as the rows give it: a base role, with the custom roles a group already gave kept beside it. */
export async function saveMapping(form) {
  const mapping = {};
  for (const row of form.querySelectorAll('.mapping-row')) {
    const group = row.querySelector('.group').value.trim();
    if (!group) continue;
    const role = row.querySelector('.role').value;
    const roles = JSON.parse(row.dataset.roles || '[]');
    mapping[group] = roles.length ? { role, roles } : role;
  }
  await api('PUT', '/api/setup/scim/role-mapping', mapping);
  await refreshStep('scim', '[data-action="add-group"]');
  say('scim', text.mappingSaved);
}

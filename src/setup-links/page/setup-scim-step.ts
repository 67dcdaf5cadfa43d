/** The setup page's SCIM step: the base URL, the tokens (a new one's secret shown once), the guides, the groups' roles. */
import { html, SafeHtml } from '../../common/html';
import { SCIM_GUIDES } from './setup-guides.messages';
import { SCIM_TEXT } from './setup-page.messages';
import { copyable, MappedGroup, SetupPageModel, StepState, stepSection, stepsList, timeOf } from './setup-page.parts';

const BASE_ROLES = ['member', 'admin', 'owner'];

export function scimState(tokens: SetupPageModel['scimTokens']): StepState {
  if (tokens.some((token) => token.lastUsedAt)) return 'done';
  return tokens.length ? 'in-progress' : 'to-do';
}

function tokens(model: SetupPageModel): SafeHtml {
  const list = model.scimTokens;
  return html`<p>${list.length ? SCIM_TEXT.tokensMade(list.length) : SCIM_TEXT.tokensNone}</p>
${
  list.length > 0 &&
  html`<ul class="tokens">${list.map(
    (token) =>
      html`<li>${SCIM_TEXT.tokenMadeAt} ${timeOf(token.createdAt)}, ${
        token.lastUsedAt ? html`${SCIM_TEXT.tokenUsedAt} ${timeOf(token.lastUsedAt)}` : SCIM_TEXT.tokenNeverUsed
      }</li>`,
  )}</ul>`
}
<p><button type="button" data-action="make-token">${list.length ? SCIM_TEXT.makeAnother : SCIM_TEXT.makeToken}</button></p>`;
}

/**
 * One group of the mapping: its name and base role; the custom roles it also gives are kept as they
 * are (`data-roles`), since the page sets base roles only.
 */
export function mappingRow(n: number, group: string, mapped: MappedGroup): SafeHtml {
  const role = typeof mapped === 'string' ? mapped : (mapped.role ?? 'member');
  const custom = typeof mapped === 'string' ? [] : (mapped.roles ?? []);
  return html`<li class="mapping-row" data-roles="${JSON.stringify(custom)}">
<span class="field"><label for="scim-group-${n}">${SCIM_TEXT.groupLabel(n)}</label>
<input id="scim-group-${n}" class="group" type="text" value="${group}" autocomplete="off" spellcheck="false"></span>
<span class="field"><label for="scim-role-${n}">${SCIM_TEXT.roleLabel(n)}</label>
<select id="scim-role-${n}" class="role">${BASE_ROLES.map(
    (key) => html`<option value="${key}"${key === role ? html` selected` : ''}>${key}</option>`,
  )}</select></span>
${custom.length > 0 && html`<span class="hint">${SCIM_TEXT.customRoles} ${custom.join(', ')}</span>`}
<button type="button" class="secondary" data-action="remove-group" aria-label="${SCIM_TEXT.removeGroup(n)}">×</button>
</li>`;
}

function mapping(model: SetupPageModel): SafeHtml {
  const groups = Object.entries(model.roleMapping);
  return html`<h3>${SCIM_TEXT.mappingHeading}</h3>
<p>${SCIM_TEXT.mappingIntro}</p>
<form data-action="save-mapping" novalidate>
${groups.length === 0 && html`<p id="scim-mapping-none">${SCIM_TEXT.mappingNone}</p>`}
<ol class="mapping" id="scim-mapping">${groups.map(([group, mapped], i) => mappingRow(i + 1, group, mapped))}</ol>
<p><button type="button" class="secondary" data-action="add-group">${SCIM_TEXT.addGroup}</button>
<button type="submit">${SCIM_TEXT.saveMapping}</button></p>
<template id="scim-row-template">${mappingRow(0, '', 'member')}</template>
</form>`;
}

export function scimStep(model: SetupPageModel, number: number): SafeHtml {
  const body = html`<dl class="values">
${copyable('scim-base-url', SCIM_TEXT.baseUrl, model.scimBaseUrl)}
</dl>
${tokens(model)}
<div class="secret" id="scim-secret-box" hidden>
<dl class="values">
${copyable('scim-secret', SCIM_TEXT.secretLabel, '')}
</dl>
</div>
<h3>${SCIM_TEXT.guides}</h3>
${SCIM_GUIDES.map((guide) => html`<details><summary>${guide.label}</summary>${stepsList(guide.steps)}</details>`)}
${mapping(model)}`;
  return stepSection('scim', number, SCIM_TEXT.heading, scimState(model.scimTokens), SCIM_TEXT.intro, body);
}

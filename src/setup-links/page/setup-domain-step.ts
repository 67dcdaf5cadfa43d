/** The setup page's domain step: each claimed domain, its TXT record and last DNS answer, and a new claim. */
import { html, SafeHtml } from '../../common/html';
import { CHECK_RESULT_TEXT, DOMAIN_STATUS_TEXT, DOMAIN_TEXT } from './setup-page.messages';
import { copyable, SetupDomain, SetupPageModel, StepState, stepSection, textField, timeOf } from './setup-page.parts';

/** The label a DNS console wants for the record: the record's name without the domain. */
const hostLabel = (domain: SetupDomain) => domain.verification.recordName.slice(0, -domain.name.length - 1);

const proven = (domain: SetupDomain) => domain.status === 'verified' || domain.status === 'failing';

export function domainState(domains: SetupDomain[]): StepState {
  if (domains.some(proven)) return 'done';
  return domains.length ? 'in-progress' : 'to-do';
}

/** The last DNS answer, in words. */
function lastCheck(domain: SetupDomain): SafeHtml | string {
  if (!domain.lastCheck) return '';
  const words = CHECK_RESULT_TEXT[domain.lastCheck.result]?.(domain.verification.recordName) ?? domain.lastCheck.result;
  return html`<p class="check check-${domain.lastCheck.result}" id="domain-${domain.name}-check">Checked \
${timeOf(domain.lastCheck.at)}: ${words}</p>`;
}

/** One claimed domain: its status; unless proven, the record to publish and "Check now". */
function domainCard(domain: SetupDomain): SafeHtml {
  const id = `domain-${domain.name}`;
  const status = DOMAIN_STATUS_TEXT[domain.status] ?? domain.status;
  if (domain.status === 'verified')
    return html`<article class="card" id="${id}" aria-labelledby="${id}-name">
<h3 id="${id}-name" tabindex="-1">${domain.name}</h3>
<p class="status status-verified">${status}${domain.verifiedAt && html`: ${DOMAIN_TEXT.provenOn} ${timeOf(domain.verifiedAt)}`}.</p>
</article>`;
  return html`<article class="card" id="${id}" aria-labelledby="${id}-name">
<h3 id="${id}-name" tabindex="-1">${domain.name}</h3>
<p class="status status-${domain.status}">${status}.</p>
<p>${DOMAIN_TEXT.recordIntro}</p>
<dl class="values">
${copyable(`${id}-record-name`, DOMAIN_TEXT.recordName, domain.verification.recordName)}
${copyable(`${id}-record-value`, DOMAIN_TEXT.recordValue, domain.verification.recordValue)}
</dl>
<p class="hint">${DOMAIN_TEXT.hostHint(hostLabel(domain), domain.name)}</p>
${lastCheck(domain)}
<p class="actions"><button type="button" data-action="verify-domain" data-domain="${domain.name}">${DOMAIN_TEXT.checkButton} \
<span class="visually-hidden">${domain.name}</span></button>
<button type="button" class="secondary" data-action="remove-domain" data-domain="${domain.name}">${DOMAIN_TEXT.removeButton} \
<span class="visually-hidden">${domain.name}</span></button></p>
</article>`;
}

export function domainStep(model: SetupPageModel, number: number): SafeHtml {
  const body = html`${model.domains.length ? model.domains.map(domainCard) : html`<p>${DOMAIN_TEXT.none}</p>`}
<form class="add" data-action="add-domain" novalidate>
${textField('domain-name', DOMAIN_TEXT.addLabel, { hint: DOMAIN_TEXT.addHint })}
<button type="submit">${DOMAIN_TEXT.addButton}</button>
</form>`;
  return stepSection('domain', number, DOMAIN_TEXT.heading, domainState(model.domains), DOMAIN_TEXT.intro, body);
}

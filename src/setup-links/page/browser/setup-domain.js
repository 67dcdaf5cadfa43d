// The domain step: add a domain, then "Check now" asks the DNS and the page says its answer.
import { api, fill, refreshStep, say, text } from './setup-common.js';

const path = (name) => `/api/setup/domains/${encodeURIComponent(name)}`;

export async function addDomain(form) {
  const input = form.querySelector('input');
  const answer = await api('POST', '/api/setup/domains', { domain: input.value.trim() });
  const name = answer.domain.name;
  await refreshStep('domain', `[data-action="verify-domain"][data-domain="${CSS.escape(name)}"]`);
  say('domain', fill(text.domainAdded, { domain: name }));
}

/** The check's answer in words, as the page renders it for the domain (its last check, or proven). */
export async function verifyDomain(button) {
  const name = button.dataset.domain;
  say('domain', fill(text.domainChecking, { domain: name }));
  const answer = await api('POST', `${path(name)}/verify`);
  const card = `domain-${name}`;
  await refreshStep(
    'domain',
    answer.domain.status === 'pending' ? `[data-domain="${CSS.escape(name)}"]` : `#${CSS.escape(card)}-name`,
  );
  const check = document.getElementById(`${card}-check`);
  const proven = answer.domain.status === 'verified' || answer.domain.status === 'failing';
  if (proven) say('domain', `${name}: ${text.domainProven}.`);
  else say('domain', check ? check.textContent : text.fallback.failed, { error: true, shown: Boolean(check) });
}

/** Removes a claim that this link made (the service refuses any other, in words). */
export async function removeDomain(button) {
  const name = button.dataset.domain;
  await api('DELETE', path(name));
  await refreshStep('domain', '#domain-name');
  say('domain', fill(text.domainRemoved, { domain: name }));
}

import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { blacklist as disposableDomains } from 'mailchecker';
import { parse } from 'tldts';
import { DomainsConfig } from '../config/domains-config';

/** Why a name cannot be claimed, as the claim route answers it (docs/domains.md). */
export type DomainRefusal = 'DOMAIN_INVALID' | 'DOMAIN_PUBLIC_SUFFIX' | 'DOMAIN_FREE_PROVIDER';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A claimed name in its one stored form: trimmed, lower-cased, without a trailing dot, an IDN as
 * its A-label. Null when it is not a domain name of at least two labels: an IP address, a
 * wildcard, an address with `@`, a label over 63 or a name over 253 characters.
 */
export function normaliseDomain(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  let name = raw.trim().toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '' || /[@*\s/\\:[\]]/.test(name) || isIP(name) !== 0) return null;
  const ascii = domainToASCII(name);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // A name of digits and dots only is an IPv4 address in some notation, not a domain.
  if (/^[0-9.]+$/.test(ascii)) return null;
  return ascii;
}

/** The e-mail domain of an address, normalised as a claim is; null when it has none. */
export function emailDomain(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  return at < 0 ? null : normaliseDomain(email.slice(at + 1));
}

/**
 * The free-mail and disposable providers: `email-providers` (free mail, the maintained list), the
 * disposable list of `mailchecker`, and DOMAIN_DENYLIST. Read once.
 */
export class ProviderList {
  private readonly providers: Set<string>;
  private readonly allowed: Set<string>;

  constructor(config: DomainsConfig) {
    const freeMail = JSON.parse(readFileSync(require.resolve('email-providers/all.json'), 'utf8')) as string[];
    this.providers = new Set([...freeMail, ...disposableDomains(), ...config.denylist]);
    this.allowed = new Set(config.allowlist);
  }

  /** Why the name cannot be claimed, or null. DOMAIN_ALLOWLIST wins over every list. */
  refusal(name: string): DomainRefusal | null {
    if (this.allowed.has(name)) return null;
    const parsed = parse(name, { allowPrivateDomains: true });
    if (parsed.publicSuffix === name && (parsed.isIcann || parsed.isPrivate)) return 'DOMAIN_PUBLIC_SUFFIX';
    // The name, or a name above it (a provider's subdomain), is a provider's.
    for (let at = name; at.includes('.'); at = at.slice(at.indexOf('.') + 1)) {
      if (this.providers.has(at)) return 'DOMAIN_FREE_PROVIDER';
    }
    return null;
  }
}

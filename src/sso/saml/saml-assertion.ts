import { SAML_REASONS } from './saml.messages';
import { children, elements, NAMEID_EMAIL, parseSaml, SAML_NS, SamlCheckFailed } from './saml-xml';

/** What a valid response says of the person, read from the signed assertion only. */
export interface SamlAssertion {
  id: string;
  /** When it stops being acceptable (its NotOnOrAfter): it is remembered until then plus the skew. */
  notOnOrAfter: Date;
  /** The request it answers; null for an unsolicited (IdP-initiated) response. */
  inResponseTo: string | null;
  subject: string;
  email: string | null;
  groups: string[];
}

/** What the assertion must say: of whom, for which connection, answering what, and when. */
export interface AssertionExpectations {
  idpEntityId: string;
  spEntityId: string;
  acsUrl: string;
  /** The response's InResponseTo; null for an unsolicited one. */
  inResponseTo: string | null;
  now: Date;
  skewSeconds: number;
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const GROUP_ATTRIBUTES = ['groups', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'];

const refuse = (reason: string): never => {
  throw new SamlCheckFailed(reason);
};

/**
 * The checks of the signed assertion, on the bytes that the signature covers (never the message's
 * other bytes), in order (docs/sso.md, "Why a SAML sign-in was refused"): its Issuer is the
 * provider's; a bearer subject confirmation for this connection's ACS, answering the response's
 * request; the times of its conditions and of that confirmation within the skew; one Conditions whose
 * every AudienceRestriction names this connection (SAML core 2.5.1.4: all must hold); a NameID; at most
 * one e-mail address. Then the person: the NameID as subject, the e-mail attribute (else a NameID that
 * is an address), the groups.
 */
export function readSignedAssertion(assertionXml: string, expected: AssertionExpectations): SamlAssertion {
  const assertion = parseSaml(assertionXml, 'the assertion').documentElement;
  const id = assertion.getAttribute('ID');
  if (!id) refuse(SAML_REASONS.noId);
  const issuer = children(assertion, SAML_NS.assertion, 'Issuer')[0]?.textContent?.trim() ?? '';
  if (issuer !== expected.idpEntityId) refuse(SAML_REASONS.issuer(expected.idpEntityId, issuer || 'none'));
  const [subject] = children(assertion, SAML_NS.assertion, 'Subject');
  const confirmation = confirmationFor(subject, expected);
  const conditions = children(assertion, SAML_NS.assertion, 'Conditions');
  if (conditions.length > 1) refuse(SAML_REASONS.conditions(conditions.length));
  const notOnOrAfter = checkTimes([conditions[0], confirmation], expected);
  checkAudiences(conditions[0], expected.spEntityId);
  const [nameId] = subject ? children(subject, SAML_NS.assertion, 'NameID') : [];
  const nameIdValue = nameId?.textContent?.trim() ?? '';
  if (!nameIdValue) refuse(SAML_REASONS.noNameId);
  const emails = distinct(EMAIL_ATTRIBUTES.flatMap((name) => attributeValues(assertion, name)));
  if (emails.length > 1) refuse(SAML_REASONS.emails(emails.length));
  const email =
    emails[0] ?? (nameId.getAttribute('Format') === NAMEID_EMAIL || nameIdValue.includes('@') ? nameIdValue : null);
  const groups = GROUP_ATTRIBUTES.flatMap((name) => attributeValues(assertion, name));
  return { id: id!, notOnOrAfter, inResponseTo: expected.inResponseTo, subject: nameIdValue, email, groups };
}

/** The bearer SubjectConfirmationData whose Recipient is this ACS; its InResponseTo, if any, the response's. */
function confirmationFor(subject: Element | undefined, expected: AssertionExpectations): Element {
  const bearer = (subject ? children(subject, SAML_NS.assertion, 'SubjectConfirmation') : [])
    .filter((confirmation) => confirmation.getAttribute('Method') === BEARER)
    .flatMap((confirmation) => children(confirmation, SAML_NS.assertion, 'SubjectConfirmationData'));
  if (!bearer.length) refuse(SAML_REASONS.noConfirmation);
  const forAcs = bearer.filter((data) => data.getAttribute('Recipient') === expected.acsUrl);
  if (!forAcs.length) {
    const recipients = bearer.map((data) => data.getAttribute('Recipient')).filter(Boolean);
    refuse(SAML_REASONS.recipient(expected.acsUrl, recipients.join(', ') || 'none'));
  }
  const [data] = forAcs;
  const answers = data.getAttribute('InResponseTo');
  if (answers && answers !== expected.inResponseTo)
    refuse(SAML_REASONS.confirmationRequest(answers.slice(0, 100), expected.inResponseTo ?? 'none'));
  return data;
}

/** NotBefore and NotOnOrAfter of the conditions and the confirmation within the skew; the earliest end. */
function checkTimes(nodes: (Element | undefined)[], { now, skewSeconds }: AssertionExpectations): Date {
  const times = (name: string) =>
    nodes
      .map((node) => node?.getAttribute(name))
      .filter((value): value is string => !!value)
      .map((value) => {
        const time = new Date(value);
        if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(time.getTime()))
          refuse(SAML_REASONS.badTime(name, value.slice(0, 40)));
        return time;
      });
  const skewMs = skewSeconds * 1000;
  const starts = times('NotBefore');
  const start = starts.length ? new Date(Math.max(...starts.map(Number))) : null;
  if (start && now.getTime() + skewMs < start.getTime()) refuse(SAML_REASONS.notYetValid(start, now, skewSeconds));
  const ends = times('NotOnOrAfter');
  if (!ends.length) refuse(SAML_REASONS.noNotOnOrAfter);
  const end = new Date(Math.min(...ends.map(Number)));
  if (now.getTime() - skewMs >= end.getTime()) refuse(SAML_REASONS.expired(end, now, skewSeconds));
  return end;
}

function checkAudiences(conditions: Element | undefined, spEntityId: string): void {
  const restrictions = conditions ? children(conditions, SAML_NS.assertion, 'AudienceRestriction') : [];
  if (!restrictions.length) refuse(SAML_REASONS.noAudience);
  for (const restriction of restrictions) {
    const audiences = children(restriction, SAML_NS.assertion, 'Audience').map((a) => a.textContent?.trim() ?? '');
    if (!audiences.includes(spEntityId))
      refuse(SAML_REASONS.audience(spEntityId, audiences.filter(Boolean).join(', ').slice(0, 300) || 'none'));
  }
}

/** The non-empty values of the assertion's attributes of that name, trimmed. */
function attributeValues(assertion: Element, name: string): string[] {
  return elements(assertion, SAML_NS.assertion, 'Attribute')
    .filter((attribute) => attribute.getAttribute('Name') === name)
    .flatMap((attribute) => children(attribute, SAML_NS.assertion, 'AttributeValue'))
    .map((value) => value.textContent?.trim() ?? '')
    .filter(Boolean);
}

/** The addresses, each once, whatever its case (the first spelling kept). */
function distinct(values: string[]): string[] {
  const byKey = new Map<string, string>();
  for (const value of values) if (!byKey.has(value.toLowerCase())) byKey.set(value.toLowerCase(), value);
  return [...byKey.values()];
}

import { SAML_REASONS } from './saml.messages';
import { children, descendants, elements, parseSaml, SAML_NS, SamlCheckFailed, SamlRefused } from './saml-xml';

/** A response whose shape passed: its root, and its one assertion (none for an error status). */
export interface ResponseShape {
  root: Element;
  assertion: Element | null;
}

const MAX_RESPONSE_CHARS = 512 * 1024;
/** Far deeper than any SAML response (about ten levels), far shallower than a call stack. */
const MAX_DEPTH = 50;
/** RSA with SHA-256 or stronger; never SHA-1. */
const SIGNATURE_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
]);
const DIGEST_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);
/** XML canonicalisation without comments: with them, a comment would be signed content that readers skip. */
const CANONICALIZATIONS = new Set([
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
]);
const TRANSFORMS = new Set([...CANONICALIZATIONS, 'http://www.w3.org/2000/09/xmldsig#enveloped-signature']);
/** The names xml-crypto looks a Reference up by, in any namespace. */
const ID_NAMES = new Set(['ID', 'Id', 'id']);

const refuse = (reason: string): never => {
  throw new SamlCheckFailed(reason);
};

/**
 * A SAMLResponse form field read, or refused with the check, before any signature is looked at
 * (docs/sso.md, "Why a SAML sign-in was refused"): UTF-8 bytes only, no DTD, processing instruction,
 * comment or content after the root, no nesting beyond 50 levels; one element per ID, never an ID in a namespace; no encrypted
 * assertion, at most one, a child of the Response; every Signature enveloped in the Response or the
 * assertion, with one SignedInfo, one Reference to that element, the allowed algorithms and
 * transforms. What the signature library then verifies is therefore the element that is read.
 */
export function responseShape(samlResponse: string): ResponseShape {
  const document = responseDocument(samlResponse);
  const root = document.documentElement;
  for (let node = root.nextSibling; node; node = node.nextSibling)
    if (node.nodeType !== 3 || node.nodeValue?.trim()) refuse(SAML_REASONS.trailingContent);
  checkNodes(document);
  if (root.localName !== 'Response' || root.namespaceURI !== SAML_NS.protocol) refuse(SAML_REASONS.notResponse);
  checkIds(root);
  if (elements(root, SAML_NS.assertion, 'EncryptedAssertion').length) refuse(SAML_REASONS.encrypted);
  const assertions = byLocalName(root, 'Assertion');
  if (assertions.length > 1) refuse(SAML_REASONS.assertions(assertions.length));
  const [assertion = null] = assertions;
  if (assertion && (assertion.parentNode !== root || assertion.namespaceURI !== SAML_NS.assertion))
    refuse(SAML_REASONS.assertionPlace(nameOf(assertion.parentNode)));
  checkSignatures(root);
  return { root, assertion };
}

/** The Signature that signs `element` (its child), if any. */
export const signatureOf = (element: Element): Element | undefined => children(element, SAML_NS.dsig, 'Signature')[0];

function responseDocument(samlResponse: string): Document {
  if (samlResponse.length > MAX_RESPONSE_CHARS) refuse(SAML_REASONS.tooLarge);
  if (!/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) refuse(SAML_REASONS.notBase64);
  let xml = '';
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(samlResponse, 'base64'));
  } catch {
    refuse(SAML_REASONS.notUtf8);
  }
  const declared = /^\s*<\?xml\s[^?]*?encoding\s*=\s*["']([^"']*)["']/.exec(xml)?.[1];
  if (declared !== undefined && !/^utf-?8$/i.test(declared)) refuse(SAML_REASONS.encoding(declared.slice(0, 40)));
  try {
    return parseSaml(xml, 'the response');
  } catch (error) {
    if (error instanceof SamlRefused) refuse(error.message);
    throw error;
  }
}

/**
 * Not nested beyond MAX_DEPTH (the libraries after this walk the tree by recursion), no comment
 * anywhere, no processing instruction but the XML declaration (parseSaml reads the text; this the tree).
 */
function checkNodes(document: Document): void {
  for (const { node, depth } of descendants(document)) {
    if (depth > MAX_DEPTH) refuse(SAML_REASONS.tooDeep(MAX_DEPTH));
    if (node.nodeType === 8) refuse(SAML_REASONS.comment);
    if (node.nodeType === 7 && !(node.parentNode === document && node.nodeName === 'xml'))
      refuse(SAML_REASONS.processingInstruction);
  }
}

function checkIds(root: Element): void {
  const seen = new Set<string>();
  for (const element of byLocalName(root))
    for (let index = 0; index < element.attributes.length; index++) {
      const attribute = element.attributes[index];
      if (!ID_NAMES.has(attribute.localName)) continue;
      if (attribute.namespaceURI) refuse(SAML_REASONS.namespacedId(attribute.name.slice(0, 100)));
      if (seen.has(attribute.value)) refuse(SAML_REASONS.duplicateId(attribute.value.slice(0, 100)));
      seen.add(attribute.value);
    }
}

function checkSignatures(root: Element): void {
  const algorithms = (name: string, allowed: Set<string>, reason: (algorithm: string) => string) => {
    for (const method of elements(root, SAML_NS.dsig, name)) {
      const algorithm = method.getAttribute('Algorithm') ?? '';
      if (!allowed.has(algorithm)) refuse(reason(algorithm.slice(0, 200)));
    }
  };
  algorithms('SignatureMethod', SIGNATURE_ALGORITHMS, SAML_REASONS.signatureAlgorithm);
  algorithms('DigestMethod', DIGEST_ALGORITHMS, SAML_REASONS.digestAlgorithm);
  algorithms('CanonicalizationMethod', CANONICALIZATIONS, SAML_REASONS.canonicalization);
  algorithms('Transform', TRANSFORMS, SAML_REASONS.transform);
  for (const signature of elements(root, SAML_NS.dsig, 'Signature')) {
    const parent = signature.parentNode as Element;
    const signed =
      parent === root ||
      (parent.parentNode === root && parent.localName === 'Assertion' && parent.namespaceURI === SAML_NS.assertion);
    if (!signed) refuse(SAML_REASONS.signaturePlace(nameOf(parent)));
    const count = children(parent, SAML_NS.dsig, 'Signature').length;
    if (count > 1) refuse(SAML_REASONS.signatures(parent.localName, count));
    const signedInfo = children(signature, SAML_NS.dsig, 'SignedInfo');
    if (signedInfo.length !== 1) refuse(SAML_REASONS.signedInfo(signedInfo.length));
    const references = elements(signature, SAML_NS.dsig, 'Reference');
    if (references.length !== 1) refuse(SAML_REASONS.references(references.length));
    if (elements(signature, SAML_NS.dsig, 'Object').length) refuse(SAML_REASONS.signatureObject);
    const uri = references[0].getAttribute('URI') ?? '';
    const id = parent.getAttribute('ID') ?? '';
    if (!id || uri !== `#${id}`) refuse(SAML_REASONS.referenceTarget(uri.slice(0, 100), parent.localName, id));
  }
}

/** The elements below `node` of a local name in any namespace (every element without one), as node-saml looks them up. */
function byLocalName(node: Element, localName?: string): Element[] {
  return [...descendants(node)]
    .map((entry) => entry.node)
    .filter((current): current is Element => current.nodeType === 1)
    .filter((element) => !localName || element.localName === localName);
}

const nameOf = (node: Node | null): string => (node?.nodeType === 1 ? (node as Element).tagName : 'the document');

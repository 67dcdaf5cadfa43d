import { DOMParser } from '@xmldom/xmldom';
import { XML_REFUSALS } from './saml.messages';

/** Why a SAML document was refused, in words an owner can act on. */
export class SamlRefused extends Error {}

/** A failed check of a SAML response, with the check in words (saml.messages.ts). */
export class SamlCheckFailed extends Error {
  constructor(
    message: string,
    /** The provider answered an error status (the person cancelled, or may not use the application). */
    readonly idpError = false,
  ) {
    super(message);
  }
}

/**
 * A SAML document parsed, or refused before any other check: a DTD (entity expansion, external
 * entities) or a processing instruction has no place in metadata or a response, and xmldom would
 * otherwise read past both. Parse errors are refusals too, never a 500.
 */
export function parseSaml(xml: string, what: string): Document {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlRefused(XML_REFUSALS.dtd(what));
  // Only the XML declaration, first: `<?xml …?>` anywhere else is a processing instruction too.
  if (xml.replace(/^\uFEFF?\s*<\?xml\s[^?]*\?>/, '').includes('<?'))
    throw new SamlRefused(XML_REFUSALS.processingInstruction(what));
  let failure: string | null = null;
  let document: Document | undefined;
  try {
    document = new DOMParser({
      locator: {},
      errorHandler: {
        warning: () => undefined,
        error: (message: string) => void (failure ??= message),
        fatalError: (message: string) => void (failure ??= message),
      },
    }).parseFromString(xml, 'text/xml') as unknown as Document;
  } catch (error) {
    // xmldom throws, rather than reports, some shapes (a CDATA section after the root element).
    failure = error instanceof Error ? error.message : String(error);
  }
  if (failure !== null || !document?.documentElement)
    throw new SamlRefused(XML_REFUSALS.notWellFormed(what, failure ? String(failure).split('\n')[0] : ''));
  return document;
}

/**
 * `node` and every node below it, in document order, each with its depth (`node`'s is 0). Without
 * recursion: a hostile document may nest tens of thousands of elements deep.
 */
export function* descendants(node: Node): Generator<{ node: Node; depth: number }> {
  const stack: { node: Node; depth: number }[] = [{ node, depth: 0 }];
  while (stack.length) {
    const current = stack.pop()!;
    yield current;
    const below: Node[] = [];
    for (let child = current.node.firstChild; child; child = child.nextSibling) below.push(child);
    for (let index = below.length - 1; index >= 0; index--)
      stack.push({ node: below[index], depth: current.depth + 1 });
  }
}

/** The elements below `node` (itself included when it matches) of a local name in a namespace. */
export function elements(node: Node, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (const { node: current } of descendants(node))
    if (
      current.nodeType === 1 &&
      (current as Element).localName === localName &&
      (current as Element).namespaceURI === namespace
    )
      found.push(current as Element);
  return found;
}

/** The child elements of `node` of a local name in a namespace. */
export function children(node: Node, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling)
    if (
      child.nodeType === 1 &&
      (child as Element).localName === localName &&
      (child as Element).namespaceURI === namespace
    )
      found.push(child as Element);
  return found;
}

export const SAML_NS = {
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

export const SAML_BINDINGS = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;

export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

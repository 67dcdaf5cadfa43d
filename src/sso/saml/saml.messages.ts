/** Why a SAML document (metadata, a response) was refused before it was read. */
export const XML_REFUSALS = {
  dtd: (what: string) => `${what} holds a DTD, which is refused`,
  processingInstruction: (what: string) => `${what} holds a processing instruction, which is refused`,
  notWellFormed: (what: string, detail: string) => `${what} is not well-formed XML${detail ? `: ${detail}` : ''}`,
} as const;

/**
 * Why a SAML sign-in was refused: the `reason` of the refusal and the attempt's `detail`, one per check,
 * word for word as docs/sso.md ("Why a SAML sign-in was refused") lists them.
 */
export const SAML_REASONS = {
  missing: 'SAMLResponse missing',
  tooLarge: 'SAMLResponse is larger than 512 KB',
  notBase64: 'SAMLResponse is not base64',
  notUtf8: 'the response is not UTF-8',
  encoding: (declared: string) => `the response declares the encoding ${declared}, and only UTF-8 is read`,
  dtd: XML_REFUSALS.dtd('the response'),
  processingInstruction: XML_REFUSALS.processingInstruction('the response'),
  notWellFormed: (detail: string) => XML_REFUSALS.notWellFormed('the response', detail),
  trailingContent: 'the response has content after its root element',
  tooDeep: (levels: number) => `the response nests elements more than ${levels} levels deep`,
  comment: 'the response holds a comment, which is refused (no signature covers a comment)',
  notResponse: 'the message is not a SAML Response',
  duplicateId: (id: string) => `two elements have the ID ${id}`,
  namespacedId: (name: string) => `an ID attribute in a namespace (${name}), which is refused`,
  signatureAlgorithm: (algorithm: string) => `signature algorithm refused (RSA-SHA256 or stronger only): ${algorithm}`,
  digestAlgorithm: (algorithm: string) => `digest algorithm refused (SHA-256 or stronger only): ${algorithm}`,
  canonicalization: (algorithm: string) =>
    `canonicalisation refused (exclusive or inclusive XML canonicalisation, without comments): ${algorithm}`,
  transform: (algorithm: string) =>
    `transform refused (enveloped-signature and canonicalisation without comments only): ${algorithm}`,
  signaturePlace: (parent: string) => `a Signature outside the Response and the assertion (in ${parent})`,
  signatures: (element: string, count: number) => `the ${element} has ${count} Signatures`,
  signedInfo: (count: number) => `a Signature with ${count} SignedInfo (exactly one is read)`,
  references: (count: number) => `a Signature with ${count} References (exactly one is read)`,
  signatureObject: 'a Signature that carries an Object, which is refused',
  referenceTarget: (uri: string, element: string, id: string) =>
    `a Signature whose Reference (${uri || 'empty'}) is not the ${element} it is in (#${id})`,
  encrypted: 'encrypted assertions are not supported: turn assertion encryption off at the provider',
  assertions: (count: number) => `the response holds ${count} assertions (exactly one is read)`,
  assertionPlace: (parent: string) => `an assertion outside the Response's children (in ${parent})`,
  noAssertion: 'the response holds no assertion',
  errorWithAssertion: 'a response whose status is not Success carries an assertion',
  idpError: (status: string) => `the provider answered ${status}`,
  destinationMissing: 'Destination missing',
  destination: (expected: string, got: string) => `Destination mismatch: expected ${expected}, got ${got}`,
  unsolicited: 'an unsolicited response (no InResponseTo), and this connection refuses IdP-initiated sign-ins',
  unknownRequest: (requestId: string) => `InResponseTo ${requestId} is unknown`,
  responseIssuer: (expected: string, got: string) => `Response Issuer mismatch: expected ${expected}, got ${got}`,
  noCertificate: 'the connection has no certificate of the provider: refresh or replace its metadata (fail closed)',
  noSignature: 'no signature',
  assertionUnsigned: 'the response is signed but the assertion is not (wantAssertionsSigned)',
  foreignKey: (fingerprint: string | null) =>
    `signed by a key that is not one of the connection's certificates (fingerprint ${
      fingerprint ?? 'unknown: KeyInfo carries no certificate'
    })`,
  changed: 'the signature does not verify (the signed content was changed)',
  noId: 'the assertion has no ID',
  issuer: (expected: string, got: string) => `Issuer mismatch: expected ${expected}, got ${got}`,
  noConfirmation: 'no subject confirmation for this ACS',
  recipient: (expected: string, got: string) => `Recipient mismatch: expected ${expected}, got ${got}`,
  confirmationRequest: (got: string, expected: string) =>
    `the subject confirmation answers InResponseTo ${got}, the response ${expected}`,
  noNameId: 'the assertion has no NameID',
  noNotOnOrAfter: 'the assertion has no NotOnOrAfter',
  badTime: (name: string, value: string) => `the assertion's ${name} is not a time: ${value}`,
  expired: (at: Date, now: Date, skewSeconds: number) =>
    `expired at ${at.toISOString()} (now ${now.toISOString()}, skew ${skewSeconds} s)`,
  notYetValid: (at: Date, now: Date, skewSeconds: number) =>
    `not valid before ${at.toISOString()} (now ${now.toISOString()}, skew ${skewSeconds} s)`,
  conditions: (count: number) => `the assertion has ${count} Conditions (exactly one is read)`,
  noAudience: 'the assertion has no AudienceRestriction',
  audience: (expected: string, got: string) =>
    `Audience mismatch: expected ${expected} in every AudienceRestriction, got ${got}`,
  emails: (count: number) => `the assertion gives ${count} e-mail addresses (exactly one is read)`,
  noEmail: 'the assertion has no e-mail: a NameID in e-mail format or an email attribute',
  replayed: (assertionId: string) => `assertion ${assertionId} was used already`,
  requestUnusable: (requestId: string, unusable: string) => `InResponseTo ${requestId} ${unusable}`,
} as const;

/**
 * What a forger does to a signed response's XML in the SAML suites: find its parts (by the shapes
 * test/support/saml-idp.ts writes), cut them out, move them, copy them.
 */

/** The assertion element, whole. */
export const assertionOf = (xml: string) => /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];

/** The first Signature element, whole (the assertion's, when only the assertion is signed). */
export const signatureOf = (xml: string) => /<Signature [\s\S]*?<\/Signature>/.exec(xml)![0];

/** The ID of the Response or of the assertion. */
export const idOf = (xml: string, element: 'Response' | 'Assertion') =>
  new RegExp(`<${element === 'Response' ? 'samlp:Response' : 'saml:Assertion'} [^>]*?\\bID="([^"]+)"`).exec(xml)![1];

/** Something put among the Response's children, after its Issuer (where `samlp:Extensions` goes). */
export const afterResponseIssuer = (xml: string, inserted: string) =>
  xml.replace(/(<samlp:Response[^>]*>\s*<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>)/, `$1${inserted}`);

/** The assertion unsigned, its addresses changed from `from` to `to`: what a forger would have signed. */
export const forgedFrom = (assertion: string, from: string, to: string) =>
  assertion
    .replace(/<Signature [\s\S]*?<\/Signature>/, '')
    .split(from)
    .join(to);

/** An error status in place of Success: `Responder`, second level `AuthnFailed`, with a message. */
export const errorStatus = (xml: string) =>
  xml.replace(
    /<samlp:Status>[\s\S]*?<\/samlp:Status>/,
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
      '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode>' +
      '<samlp:StatusMessage>the user cancelled</samlp:StatusMessage></samlp:Status>',
  );

/** An attribute added to the assertion's AttributeStatement. */
export const withAttribute = (xml: string, name: string, value: string) =>
  xml.replace(
    '</saml:AttributeStatement>',
    `<saml:Attribute Name="${name}"><saml:AttributeValue>${value}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`,
  );

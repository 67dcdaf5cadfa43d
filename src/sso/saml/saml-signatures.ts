import { constants, publicDecrypt, X509Certificate } from 'node:crypto';
import { IdpCertificate } from './saml-metadata';
import { SAML_REASONS } from './saml.messages';
import { ResponseShape, signatureOf } from './saml-response-shape';
import { elements, SAML_NS } from './saml-xml';

/** Which elements of a response carry a Signature: what the signature library is then asked to verify. */
export interface SignedParts {
  response: boolean;
  assertion: boolean;
}

/**
 * Before the signature library verifies anything, what the response's signatures say of themselves
 * (docs/sso.md, "Why a SAML sign-in was refused"): the connection has a certificate (else nothing could
 * verify: fail closed), something is signed, the assertion itself when `wantAssertionsSigned`, and
 * every signature was made by one of the connection's keys. The last is decided by the key alone: an
 * RSA signature value opens, under the public key that made it, to a PKCS#1 block whatever was signed,
 * so a failure after it is content that was changed, and a failure here a key the connection does not
 * know (its fingerprint read from the certificate in KeyInfo, which is never trusted for anything else),
 * or, when KeyInfo names one of the connection's, a signature value that was changed.
 */
export function signatureRefusal(
  { root, assertion }: ResponseShape,
  certificates: IdpCertificate[],
  wantAssertionsSigned: boolean,
): { refused: string } | { signed: SignedParts } {
  if (!certificates.length) return { refused: SAML_REASONS.noCertificate };
  const responseSignature = signatureOf(root);
  const assertionSignature = assertion ? signatureOf(assertion) : undefined;
  if (!responseSignature && !assertionSignature) return { refused: SAML_REASONS.noSignature };
  if (wantAssertionsSigned && !assertionSignature)
    return { refused: assertion ? SAML_REASONS.assertionUnsigned : SAML_REASONS.noSignature };
  for (const signature of [responseSignature, assertionSignature]) {
    if (!signature || certificates.some((certificate) => madeBy(signature, certificate))) continue;
    const named = keyInfoFingerprint(signature);
    // A value that does not open under the very key it names was itself changed.
    if (certificates.some((certificate) => certificate.fingerprint === named)) return { refused: SAML_REASONS.changed };
    return { refused: SAML_REASONS.foreignKey(named) };
  }
  return { signed: { response: !!responseSignature, assertion: !!assertionSignature } };
}

/** Whether the signature value opens under the certificate's public key (RSA, PKCS#1 v1.5). */
function madeBy(signature: Element, certificate: IdpCertificate): boolean {
  const [value] = elements(signature, SAML_NS.dsig, 'SignatureValue');
  const bytes = Buffer.from((value?.textContent ?? '').replace(/\s+/g, ''), 'base64');
  if (!bytes.length) return false;
  try {
    publicDecrypt({ key: certificate.pem, padding: constants.RSA_PKCS1_PADDING }, bytes);
    return true;
  } catch {
    return false;
  }
}

/** The SHA-256 fingerprint of the certificate a signature's KeyInfo carries, if it carries one. */
function keyInfoFingerprint(signature: Element): string | null {
  const [data] = elements(signature, SAML_NS.dsig, 'X509Certificate');
  if (!data) return null;
  try {
    return new X509Certificate(Buffer.from((data.textContent ?? '').replace(/\s+/g, ''), 'base64')).fingerprint256;
  } catch {
    return null;
  }
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A client secret as stored: AES-256-GCM under SSO_SECRETS_KEY, `v1.` then base64url of IV, tag and
 * ciphertext. The connection's id is the additional data, so that a secret copied onto another
 * connection's row does not decrypt.
 */
export function sealSecret(key: Buffer, connectionId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(connectionId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

/** The secret back; throws when the key, the connection or the stored text is not the one it was sealed with. */
export function openSecret(key: Buffer, connectionId: string, stored: string): string {
  const [version, body] = stored.split('.');
  if (version !== VERSION || !body) throw new Error('The stored client secret is not in a known form');
  const bytes = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(connectionId, 'utf8'));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored client secret that none of the keys opens: sealed under a key no longer listed, or altered. */
export class SecretUnreadable extends Error {}

/**
 * A client secret as stored: AES-256-GCM under the first key of SSO_SECRETS_KEY, `v1.` then base64url
 * of IV, tag and ciphertext. The connection's id is the additional data, so that a secret copied onto
 * another connection's row does not decrypt.
 */
export function sealSecret(key: Buffer, connectionId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(connectionId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

/** The secret, and the index of the key that opened it (0: the key secrets are written with). */
export function openSecretWith(keys: Buffer[], connectionId: string, stored: string): { secret: string; key: number } {
  const [version, body] = stored.split('.');
  if (version !== VERSION || !body) throw new SecretUnreadable('the stored client secret is not in a known form');
  const bytes = Buffer.from(body, 'base64url');
  for (const [index, key] of keys.entries()) {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(connectionId, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      const secret = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      return { secret: secret.toString('utf8'), key: index };
    } catch {
      // Not this key: the next one (a rotation lists the new key first, the old ones after).
    }
  }
  throw new SecretUnreadable('no key of SSO_SECRETS_KEY opens the stored client secret');
}

/** The secret back, by any of the keys; throws SecretUnreadable when none opens it. */
export const openSecret = (keys: Buffer[], connectionId: string, stored: string): string =>
  openSecretWith(keys, connectionId, stored).secret;

import { randomBytes } from 'node:crypto';
import { openSecret, openSecretWith, SecretUnreadable, sealSecret } from './sso-secrets';

describe('client secrets sealed with AES-256-GCM (SSO_SECRETS_KEY)', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and never holds the secret in clear; each seal differs (a fresh IV)', () => {
    const sealed = sealSecret(key, 'connection-1', 'the-client-secret');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('the-client-secret');
    expect(sealSecret(key, 'connection-1', 'the-client-secret')).not.toBe(sealed);
    expect(openSecret([key], 'connection-1', sealed)).toBe('the-client-secret');
  });

  it('refuses another key, another connection’s row, a changed byte, an unknown form', () => {
    const sealed = sealSecret(key, 'connection-1', 'secret');
    expect(() => openSecret([randomBytes(32)], 'connection-1', sealed)).toThrow(SecretUnreadable);
    expect(() => openSecret([key], 'connection-2', sealed)).toThrow(SecretUnreadable);
    const body = Buffer.from(sealed.slice(3), 'base64url');
    body[body.length - 1] ^= 1;
    expect(() => openSecret([key], 'connection-1', `v1.${body.toString('base64url')}`)).toThrow(SecretUnreadable);
    expect(() => openSecret([key], 'connection-1', 'secret')).toThrow(/known form/);
  });

  it('a rotation (new,old): read with any key listed, and told which one opened it', () => {
    const old = randomBytes(32);
    const sealed = sealSecret(old, 'connection-1', 'secret');
    expect(openSecretWith([key, old], 'connection-1', sealed)).toEqual({ secret: 'secret', key: 1 });
    expect(openSecretWith([key, old], 'connection-1', sealSecret(key, 'connection-1', 'new'))).toEqual({
      secret: 'new',
      key: 0,
    });
  });
});

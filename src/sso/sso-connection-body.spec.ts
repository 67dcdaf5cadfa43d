import { SsoConnectionEntity } from '../database/entities';
import { Discovery } from './oidc/oidc-client';
import { oidcChangesOf } from './sso-connection-body';
import { openSecret } from './sso-secrets';

describe(oidcChangesOf.name, () => {
  const key = Buffer.alloc(32, 8);
  const now = new Date('2026-03-01T12:00:00.000Z');
  const connection = {
    id: 'connection-1',
    issuer: 'https://old.example',
    clientId: 'portal',
    tokenEndpointAuthMethod: 'client_secret_basic',
  } as SsoConnectionEntity;
  const discovery = (methods?: string[]): Discovery => ({
    issuer: 'https://new.example',
    authorization_endpoint: 'https://new.example/authorize',
    token_endpoint: 'https://new.example/token',
    jwks_uri: 'https://new.example/keys',
    token_endpoint_auth_methods_supported: methods,
  });

  it('another issuer: its discovery document and when it was read; the method kept while the document offers it', () => {
    expect(oidcChangesOf(connection, {}, { discovery: discovery(['client_secret_basic']), key, now })).toEqual({
      issuer: 'https://new.example',
      discovery: JSON.stringify(discovery(['client_secret_basic'])),
      discoveredAt: now,
    });
  });

  it('a method the new document does not offer gives way to its default, unless the owner chose one', () => {
    const post = { discovery: discovery(['client_secret_post']), key, now };
    expect(oidcChangesOf(connection, {}, post).tokenEndpointAuthMethod).toBe('client_secret_post');
    expect(oidcChangesOf(connection, { tokenEndpointAuthMethod: 'client_secret_basic' }, post)).not.toHaveProperty(
      'tokenEndpointAuthMethod',
    );
  });

  it('only what differs: the same client id is no change; a secret is sealed, never kept in clear', () => {
    const changes = oidcChangesOf(connection, { clientId: 'portal', clientSecret: 'new-secret' }, { key, now });
    expect(Object.keys(changes)).toEqual(['clientSecret']);
    expect(openSecret([key], 'connection-1', changes.clientSecret!)).toBe('new-secret');
  });
});

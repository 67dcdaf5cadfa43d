import { callerFromClaims } from './caller';

describe(callerFromClaims.name, () => {
  it('maps the session claims of spec section 2', () => {
    expect(
      callerFromClaims({
        sub: 'sub-1',
        email: 'a@example.com',
        'custom:user_type': 'org',
        'custom:tenant_id': 't1',
        'custom:role': 'admin',
      }),
    ).toEqual({ id: 'sub-1', email: 'a@example.com', userType: 'org', tenantId: 't1', role: 'admin' });
  });

  it('prefers cognito:username over sub as the user id', () => {
    expect(callerFromClaims({ sub: 'uuid', 'cognito:username': 'alice' })?.id).toBe('alice');
  });

  it('has no caller without a user id, and ignores non-string claims', () => {
    expect(callerFromClaims({ email: 'a@example.com' })).toBeNull();
    expect(callerFromClaims({ sub: 'u', 'custom:role': 7 as unknown as string })?.role).toBeNull();
  });
});

describe(`${callerFromClaims.name}: email_verified`, () => {
  it.each([
    ['absent', {}, undefined],
    ['true', { email_verified: true }, true],
    ['false', { email_verified: false }, false],
    ['the string "true": not the boolean', { email_verified: 'true' }, false],
  ])('%s is emailVerified %p', (_, claims, verified) => {
    const caller = callerFromClaims({ sub: 'u', ...claims });
    expect(caller?.emailVerified).toBe(verified);
    expect(caller && 'emailVerified' in caller).toBe(verified !== undefined);
  });
});

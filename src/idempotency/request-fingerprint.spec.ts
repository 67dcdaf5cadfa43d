import { canonicalJson, requestFingerprint } from './request-fingerprint';

describe(canonicalJson.name, () => {
  it('sorts keys at every depth and drops the formatting', () => {
    expect(canonicalJson({ role: 'member', email: 'a@example.com', nested: { z: 1, a: [{ y: 2, b: 3 }] } })).toBe(
      '{"email":"a@example.com","nested":{"a":[{"b":3,"y":2}],"z":1},"role":"member"}',
    );
  });

  it('keeps array order, and leaves out undefined properties as JSON does', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
    expect(canonicalJson([undefined])).toBe('[null]');
  });

  it('an absent body is null; strings are escaped as JSON escapes them', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ 'we"ird': 'line\nbreak é' })).toBe('{"we\\"ird":"line\\nbreak é"}');
  });

  it('reads class instances (a validated DTO) by their own properties', () => {
    class Dto {
      constructor(
        public role: string,
        public email: string,
      ) {}
    }
    expect(canonicalJson(new Dto('admin', 'x@example.com'))).toBe(
      canonicalJson({ email: 'x@example.com', role: 'admin' }),
    );
  });
});

describe(requestFingerprint.name, () => {
  const body = { email: 'a@example.com', role: 'member' };

  it('is the same for the same method, path and body in any key order', () => {
    expect(requestFingerprint('POST', '/api/org/invite', body)).toBe(
      requestFingerprint('post', '/api/org/invite', { role: 'member', email: 'a@example.com' }),
    );
    expect(requestFingerprint('POST', '/api/org/invite', body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['another body', 'POST', '/api/org/invite', { ...body, role: 'admin' }],
    ['another value type', 'POST', '/api/org/invite', { ...body, role: ['member'] }],
    ['another path', 'POST', '/api/org/invitations/x/resend', body],
    ['another method', 'PUT', '/api/org/invite', body],
  ])('differs for %s', (_, method, path, other) => {
    expect(requestFingerprint(method, path, other)).not.toBe(requestFingerprint('POST', '/api/org/invite', body));
  });
});

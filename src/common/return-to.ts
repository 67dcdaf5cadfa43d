/**
 * The returnTo rule (docs/sso.md): a path on this service's origin, or an address on one of
 * `allowedOrigins` (SSO_RETURN_ORIGINS, or this service's own). Null when refused: a scheme-relative
 * `//evil`, a backslash that browsers read as a slash (`/\evil`), `https:evil`, `javascript:`,
 * control characters, or any origin not listed. Absent: `/`.
 */
export function acceptedReturnTo(value: unknown, allowedOrigins: readonly string[]): string | null {
  if (value === undefined || value === '') return '/';
  if (typeof value !== 'string' || value.length > 2048) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\u0000-\u001f\u007f\\\s]/.test(value)) return null;
  if (value.startsWith('/')) {
    if (value.startsWith('//')) return null;
    // Resolved against a placeholder origin, the path must stay on it.
    const base = 'http://return-to.invalid';
    return new URL(value, base).origin === base ? value : null;
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username || parsed.password) return null;
  const origin = allowedOrigins.find((allowed) => value === allowed || value.startsWith(`${allowed}/`));
  return origin === undefined || parsed.origin !== origin ? null : value;
}

/** What a refused returnTo is told. */
export const RETURN_REFUSED =
  'returnTo must be a path on this service or an address on an origin of SSO_RETURN_ORIGINS';

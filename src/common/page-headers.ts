import { randomBytes } from 'node:crypto';

/** A new nonce for a page's own script and style (base64 of 128 random bits). */
export const pageNonce = (): string => randomBytes(16).toString('base64');

/**
 * Headers of an HTML page of this service: a policy that allows nothing but `allowed` (the page's
 * nonce'd script, where it may post…), never a base or a frame; no Referer (a token in its URL never
 * goes out); neither cached nor indexed.
 */
export function pageHeaders(allowed: string[]): Record<string, string> {
  return {
    'Content-Security-Policy': ["default-src 'none'", ...allowed, "base-uri 'none'", "frame-ancestors 'none'"].join(
      '; ',
    ),
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex',
  };
}

import type { Request } from 'express';
import { randomUUID } from 'node:crypto';

export const REDACTED = '[REDACTED]';

/**
 * Keys that never reach the log, wherever a log call puts them (pino `redact`). Request lines
 * carry no headers at all; this covers objects that other log calls might pass.
 */
export const REDACTED_PATHS = [
  'cookie',
  'authorization',
  'token',
  '*.cookie',
  '*.authorization',
  '*.token',
  '*["set-cookie"]',
  '*.headers.cookie',
  '*.headers.authorization',
  '*.headers["set-cookie"]',
  '*.headers["x-test-mode-key"]',
];

/**
 * The invitation token is the invitation's secret: whoever holds it can accept it. It is in the
 * path of the API (`/api/invitations/<token>`) and of the page that the e-mail links to (`/invitations/<token>`).
 * So is a setup link's token (`/setup/<token>`, docs/setup-links.md): whoever holds it sets up the organisation.
 */
const TOKEN_PATH = /^((?:\/api)?\/invitations\/|\/setup\/)[^/?#]+/i;

/**
 * The request URL as it may be logged: the invitation or setup link token in the path is masked, and so is
 * the value of any query parameter whose name mentions a token (the page token, a stray id_token).
 */
export function loggableUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const maskedPath = path.replace(TOKEN_PATH, `$1${REDACTED}`);
  if (queryStart === -1) return maskedPath;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const [name] = pair.split('=', 1);
      return /token|secret|password/i.test(name) && pair.includes('=') ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${maskedPath}?${query}`;
}

/** The header that carries the request id, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a request id taken from the client may look like: no spaces, quotes or control characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The `x-request-id` of the request (set by a proxy or the client) when it is sane; a new UUID otherwise. */
export function requestIdOf(request: Pick<Request, 'headers'>): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

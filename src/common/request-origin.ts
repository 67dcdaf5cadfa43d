import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';

const PROTOCOLS = ['http', 'https'];
const DEFAULT_PROTOCOL = 'https';
const DEFAULT_HOST = 'localhost:3000';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A plain `hostname[:port]`: DNS labels (or a dotted IPv4 address) and an optional port. */
const PLAIN_HOST = new RegExp(`^${LABEL}(?:\\.${LABEL})*(?::(\\d{1,5}))?$`);

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

function protocolOf(headers: IncomingHttpHeaders): string {
  // A chain of proxies appends: the first value is the client's.
  const protocol = first(headers['x-forwarded-proto'])?.split(',')[0].trim().toLowerCase();
  return protocol && PROTOCOLS.includes(protocol) ? protocol : DEFAULT_PROTOCOL;
}

function hostOf(headers: IncomingHttpHeaders): string {
  const host = first(headers.host)?.trim() ?? '';
  // 253 characters of name and ":65535" at most; checked first so the pattern only sees short input.
  const match = host.length <= 259 ? PLAIN_HOST.exec(host) : null;
  if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return DEFAULT_HOST;
  return host;
}

/**
 * The request's origin, protocol + "://" + host (spec 4.9 rule 10 and its note): anything
 * but http/https, and a host that is not a plain hostname[:port], count as absent, so that a
 * forged header cannot put another kind of address into an e-mail.
 */
export function requestOrigin(headers: IncomingHttpHeaders): string {
  return `${protocolOf(headers)}://${hostOf(headers)}`;
}

/** The handler parameter that receives `requestOrigin` of the request: services never see headers. */
export const RequestOrigin = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  requestOrigin(context.switchToHttp().getRequest<{ headers: IncomingHttpHeaders }>().headers),
);

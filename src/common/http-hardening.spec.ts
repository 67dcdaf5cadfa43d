import helmet from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { headersOf } from './http-hardening';

/** The headers that `middleware` leaves on a real response. */
function headersSetBy(middleware: ReturnType<typeof helmet>): Record<string, unknown> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  response.setHeader('X-Powered-By', 'Express');
  middleware(response.req as never, response as never, () => undefined);
  return response.getHeaders();
}

describe('headersOf', () => {
  it.each([
    ['the API', { contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } } }],
    ['the docs', { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }],
  ])('gives the headers that helmet sets on a real response, for %s', (_, options) => {
    const worked = headersOf(helmet(options));
    const response = new ServerResponse(new IncomingMessage(new Socket()));
    response.setHeaders(worked);
    expect(response.getHeaders()).toEqual(headersSetBy(helmet(options)));
    expect(worked.size).toBeGreaterThan(10);
  });
});

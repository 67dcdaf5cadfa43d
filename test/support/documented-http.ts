/**
 * The e2e suites' HTTP clients, held to the API document: every answer a test receives, from the
 * in-process app (supertest) or a spawned server (documentedFetch), is checked against openapi.json
 * (see DocumentValidator), and the request too unless the test marks it invalidRequest. A mismatch
 * fails the request's promise, so the test that made it fails, naming the operation and what differs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response, Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DocumentValidator, Exchange, OpenApiDocument } from './openapi-validation';

const ROOT = join(__dirname, '..', '..');

/** Requests that a test sends knowing that the document refuses them (a malformed body, a missing header). */
const meantInvalid = new WeakSet<object>();
/** Set while invalidRequest's callback runs: the requests it makes, however deep in helpers, are meant invalid. */
const invalidScope = new AsyncLocalStorage<true>();

/**
 * Marks a request as deliberately outside the document (a malformed or missing body, a bad parameter,
 * a method or path it has no operation for): its answer is still checked against the operation, its
 * request is not. Given a request, marks it; given a function, marks every request the function makes
 * (through helpers too) and returns what it returns.
 */
export function invalidRequest<T extends Test>(test: T): T;
export function invalidRequest<T>(send: () => T): T;
export function invalidRequest<T>(sent: Test | (() => T)): Test | T {
  if (typeof sent === 'function') return invalidScope.run(true, sent);
  meantInvalid.add(sent);
  return sent;
}

let committed: DocumentValidator | undefined;
/** openapi.json as committed (test/api-docs.e2e-spec.ts keeps it equal to what the server serves). */
export function committedDocument(): DocumentValidator {
  committed ??= new DocumentValidator(JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as OpenApiDocument);
  return committed;
}

let withTestMode: DocumentValidator | undefined;
/** The document of an app in test mode (the committed one has no test-mode routes): built once, from the first such app. */
export function testModeDocument(build: () => OpenApiDocument): DocumentValidator {
  withTestMode ??= new DocumentValidator(build());
  return withTestMode;
}

/** The test's lines that made the request (a helper's, then its caller's): frames outside test/support and node_modules. */
function senderOf(stack = ''): string {
  const frames = stack
    .split('\n')
    .filter((line) => /\/test\//.test(line) && !/\/(support|node_modules)\//.test(line))
    .map((line) => line.match(/\((.*)\)$/)?.[1] ?? line.replace(/^\s*at /, ''));
  return frames.slice(0, 3).join(' ← ') || 'unknown';
}

function failIfUndocumented(validator: DocumentValidator, exchange: Exchange, sentAt: string): void {
  const problems = validator.check(exchange);
  if (problems.length === 0) return;
  throw new Error(
    `The answer and openapi.json disagree (a test that sends an invalid request on purpose wraps it in invalidRequest()), sent at ${sentAt}:\n` +
      problems.map((problem) => `  - ${problem}`).join('\n'),
  );
}

/** What supertest keeps of a request: the http.ClientRequest behind the response, and the body given to send(). */
type SentRequest = { method: string; path: string; getHeaders(): Record<string, unknown> };

function exchangeOf(test: Test, res: Response): Exchange {
  const sent = (res as unknown as { req: SentRequest }).req;
  const headers = Object.fromEntries(Object.entries(sent.getHeaders()).map(([name, value]) => [name, String(value)]));
  const text = (res as unknown as { text?: string }).text;
  return {
    method: sent.method,
    url: sent.path,
    requestHeaders: headers,
    requestBody: (test as unknown as { _data?: unknown })._data,
    status: res.status,
    responseHeaders: res.headers as Record<string, string>,
    responseText: text,
    responseJson: res.type && /[/+]json$/.test(res.type) && text ? res.body : undefined,
    invalidRequestMeant: meantInvalid.has(test),
  };
}

/** A supertest agent whose every request checks its answer against the document `validator` gives. */
export function documentedAgent(agent: TestAgent, validator: () => DocumentValidator): TestAgent {
  const methods = agent as unknown as Record<string, (...args: unknown[]) => Test>;
  for (const method of Object.keys(methods)) {
    const make = methods[method];
    if (typeof make !== 'function') continue;
    methods[method] = (...args: unknown[]) => {
      const test = make.apply(agent, args);
      if (invalidScope.getStore()) meantInvalid.add(test);
      const sentAt = senderOf(new Error().stack);
      return test.expect((res: Response) => failIfUndocumented(validator(), exchangeOf(test, res), sentAt));
    };
  }
  return agent;
}

export interface DocumentedFetchOptions {
  /** The request is outside the document on purpose (see invalidRequest). */
  invalidRequest?: boolean;
  /** The server runs in test mode: its answers are checked against the document it serves itself. */
  testMode?: boolean;
}

function headersOf(headers: Headers): Record<string, string> {
  const byName: Record<string, string> = {};
  headers.forEach((value, name) => (byName[name.toLowerCase()] = value));
  return byName;
}

const served = new Map<string, Promise<DocumentValidator>>();

/**
 * fetch() for a spawned server (`baseUrl`): the answer, checked against the document, and its body
 * read (`text`, and `json` when it is JSON) since the check needs it.
 */
export async function documentedFetch(
  baseUrl: string,
  path: string,
  init: RequestInit = {},
  options: DocumentedFetchOptions = {},
): Promise<{ status: number; headers: Headers; text: string; json: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, init);
  const text = await res.text();
  const json = /[/+]json\b/.test(res.headers.get('content-type') ?? '') && text ? JSON.parse(text) : undefined;
  let validator = committedDocument();
  if (options.testMode) {
    if (!served.has(baseUrl))
      served.set(
        baseUrl,
        fetch(`${baseUrl}/api/openapi.json`).then(
          async (doc) => new DocumentValidator((await doc.json()) as OpenApiDocument),
        ),
      );
    validator = await served.get(baseUrl)!;
  }
  const requestHeaders = headersOf(new Headers(init.headers));
  failIfUndocumented(
    validator,
    {
      method: init.method ?? 'GET',
      url: path,
      requestHeaders,
      requestBody: init.body ?? undefined,
      status: res.status,
      responseHeaders: headersOf(res.headers),
      responseText: text,
      responseJson: json,
      invalidRequestMeant: options.invalidRequest ?? invalidScope.getStore() ?? false,
    },
    senderOf(new Error().stack),
  );
  return { status: res.status, headers: res.headers, text, json };
}

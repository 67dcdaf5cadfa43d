/**
 * Checks one exchange (a request a test made and the answer it got) against an OpenAPI 3.0 document:
 * the operation exists, the request is valid (parameters, body) unless the test said it is not, the
 * status is declared for the operation, its declared headers are sent, and the body is of a declared
 * media type and valid against that response's schema, formats included (ajv-formats). Ajv compiles each schema the first time an
 * answer needs it, once per document.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;
interface MediaTypes {
  [mediaType: string]: { schema?: Schema };
}
export interface DocumentedResponse {
  headers?: Record<string, { required?: boolean; $ref?: string }>;
  content?: MediaTypes;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
export interface DocumentedOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: MediaTypes };
  responses: Record<string, DocumentedResponse>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentedOperation>>;
}

/** What a test sent and what it got back. */
export interface Exchange {
  method: string;
  /** The path and query string, as sent. */
  url: string;
  requestHeaders: Record<string, string | undefined>;
  /** The body as the test gave it (an object, a string, a Buffer), or undefined when it sent none. */
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string | string[] | undefined>;
  /** The body as text (undefined when none), and parsed when it is JSON. */
  responseText: string | undefined;
  responseJson?: unknown;
  /** The test sends a request the document refuses, on purpose (invalidRequest). */
  invalidRequestMeant: boolean;
}

/** A JSON pointer segment, URI-encoded for a $ref (paths hold `/` and `{}`). */
const segment = (key: string) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'));
const pointer = (...keys: string[]) => `openapi#/${keys.map(segment).join('/')}`;

/** Percent-decoded, or as sent when its encoding is malformed (a test of that sends it so). */
const decoded = (text: string, decode: (text: string) => string) => {
  try {
    return decode(text);
  } catch {
    return text;
  }
};

const mediaTypeOf = (contentType: string | undefined) => contentType?.split(';')[0].trim().toLowerCase() || undefined;
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** The declared media type that `actual` matches: itself, `type/*` or `*\/*`. */
function declaredMediaType(content: MediaTypes, actual: string): string | undefined {
  const [type] = actual.split('/');
  return [actual, `${type}/*`, '*/*'].find((candidate) => candidate in content);
}

/** A path template as a regular expression, and how many parameters it has (fewer: more specific). */
interface Template {
  path: string;
  pattern: RegExp;
  names: string[];
}
function templateOf(path: string): Template {
  const names: string[] = [];
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (!part.startsWith('{')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1, -1));
      return '([^/]+)';
    })
    .join('');
  return { path, pattern: new RegExp(`^${source}$`), names };
}

/**
 * The document's formats, checked: `date-time` and `uri` as ajv-formats has them; `uuid` passes
 * anything, since suites seed rows with readable ids (`tenant-00001`) that the service never makes.
 */
function withFormats(ajv: Ajv): Ajv {
  addFormats(ajv, ['date-time', 'uri']);
  return ajv.addFormat('uuid', true);
}

export class DocumentValidator {
  private readonly ajv = withFormats(new Ajv({ strict: false, allErrors: true }));
  private readonly coercing = withFormats(new Ajv({ strict: false, allErrors: true, coerceTypes: 'array' }));
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: Template[];

  constructor(private readonly document: OpenApiDocument) {
    this.ajv.addSchema(document, 'openapi');
    this.coercing.addSchema(document, 'openapi');
    this.templates = Object.keys(document.paths)
      .map(templateOf)
      .sort((a, b) => a.names.length - b.names.length);
  }

  /** The document's paths, for comparing with the router's. */
  paths(): string[] {
    return Object.keys(this.document.paths);
  }

  /** What is wrong with the exchange: nothing when the document tells the truth about it. */
  check(exchange: Exchange): string[] {
    const url = new URL(exchange.url, 'http://localhost');
    const method = exchange.method.toLowerCase();
    // Express answers HEAD with its GET route, without the body.
    const documentedMethod = method === 'head' ? 'get' : method;
    // Express routes without strict routing: a trailing slash reaches the same route.
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    const found = this.operationOf(decoded(path, decodeURI), path, documentedMethod);
    const where = `${exchange.method} ${found?.template.path ?? url.pathname} ${exchange.status}`;
    if (!found) return exchange.invalidRequestMeant ? [] : [`${where}: no such operation in the document`];
    const problems = exchange.invalidRequestMeant ? [] : this.requestProblems(found, url, exchange);
    problems.push(...this.responseProblems(found, exchange, method === 'head'));
    return problems.map((problem) => `${where}: ${problem}`);
  }

  private operationOf(path: string, rawPath: string, method: string) {
    const matching = this.templates.filter((template) => template.pattern.test(rawPath) || template.pattern.test(path));
    const template = matching.find((candidate) => this.document.paths[candidate.path][method]);
    if (!template) return undefined;
    const values = (rawPath.match(template.pattern) ?? path.match(template.pattern))!.slice(1);
    const pathValues = Object.fromEntries(
      template.names.map((name, i) => [name, decoded(values[i], decodeURIComponent)]),
    );
    return { template, method, operation: this.document.paths[template.path][method], pathValues };
  }

  private validator(ajv: Ajv, ref: string): ValidateFunction {
    const key = `${ajv === this.coercing ? 'coercing ' : ''}${ref}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private requestProblems(
    found: NonNullable<ReturnType<DocumentValidator['operationOf']>>,
    url: URL,
    exchange: Exchange,
  ) {
    const problems: string[] = [];
    const { template, method, operation, pathValues } = found;
    (operation.parameters ?? []).forEach((parameter, i) => {
      if (parameter.in === 'cookie') return;
      const value =
        parameter.in === 'path'
          ? pathValues[parameter.name]
          : parameter.in === 'header'
            ? exchange.requestHeaders[parameter.name.toLowerCase()]
            : parameter.schema?.type === 'array'
              ? url.searchParams.getAll(parameter.name)
              : (url.searchParams.get(parameter.name) ?? undefined);
      const absent = value === undefined || (Array.isArray(value) && value.length === 0);
      if (absent) {
        if (parameter.required) problems.push(`request: ${parameter.in} parameter ${parameter.name} missing`);
        return;
      }
      if (!parameter.schema) return;
      // Parameters arrive as strings: the coercing instance reads "5" as 5 where the schema says integer.
      const validate = this.validator(
        this.coercing,
        pointer('paths', template.path, method, 'parameters', String(i), 'schema'),
      );
      if (!validate(value))
        problems.push(
          `request: ${parameter.in} parameter ${parameter.name}=${JSON.stringify(value)} ${this.coercing.errorsText(validate.errors)}`,
        );
    });
    const body = exchange.requestBody;
    const sent = body !== undefined && !(typeof body === 'string' && body === '');
    if (!operation.requestBody) {
      if (sent) problems.push('request: a body is sent, and the operation declares none');
      return problems;
    }
    if (!sent) {
      if (operation.requestBody.required) problems.push('request: the body is required');
      return problems;
    }
    const mediaType = mediaTypeOf(exchange.requestHeaders['content-type']);
    const declared = mediaType && declaredMediaType(operation.requestBody.content, mediaType);
    if (!declared) return [...problems, `request: body of type ${mediaType ?? '(none)'} not declared`];
    let value = Buffer.isBuffer(body) ? body.toString('utf8') : body;
    if (isJson(mediaType) && typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        return [...problems, 'request: the body is not JSON'];
      }
    }
    if (!operation.requestBody.content[declared].schema) return problems;
    const validate = this.validator(
      this.ajv,
      pointer('paths', template.path, method, 'requestBody', 'content', declared, 'schema'),
    );
    if (!validate(value))
      problems.push(`request: body ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
    return problems;
  }

  private responseProblems(
    found: NonNullable<ReturnType<DocumentValidator['operationOf']>>,
    exchange: Exchange,
    head: boolean,
  ) {
    const { template, method, operation } = found;
    const responses = operation.responses;
    const status = [String(exchange.status), `${String(exchange.status)[0]}XX`, 'default'].find(
      (key) => key in responses,
    );
    // Node's HTTP server answers request headers over 16 KB itself, 431 without a body, before the service:
    // declared only where the service answers no 4XX of its own (withHeaderLimit).
    if (exchange.status === 431 && !exchange.responseText) return [];
    if (!status) return ['status not declared'];
    const documented = responses[status];
    const problems: string[] = [];
    for (const [header, declared] of Object.entries(documented.headers ?? {})) {
      if (declared.required !== false && exchange.responseHeaders[header.toLowerCase()] === undefined)
        problems.push(`header ${header} not sent`);
    }
    const text = exchange.responseText;
    const mediaType = mediaTypeOf(exchange.responseHeaders['content-type'] as string | undefined);
    const hasBody = !head && text !== undefined && text !== '';
    const content = documented.content ?? {};
    if (!hasBody) {
      if (!head && Object.keys(content).length > 0)
        problems.push(`no body, where ${Object.keys(content).join(', ')} is declared`);
      return problems;
    }
    // A redirect's short note beside its Location (Express writes one) is not a body a client reads.
    if (Object.keys(content).length === 0 && exchange.status >= 300 && exchange.status < 400) return problems;
    const declared = mediaType && declaredMediaType(content, mediaType);
    if (!declared) return [...problems, `body of type ${mediaType ?? '(none)'} not declared (${text.slice(0, 200)})`];
    if (!content[declared].schema) return problems;
    let body: unknown = text;
    if (isJson(mediaType)) {
      try {
        body = exchange.responseJson !== undefined ? exchange.responseJson : JSON.parse(text);
      } catch {
        return [...problems, `the body is not JSON: ${text.slice(0, 200)}`];
      }
    }
    const validate = this.validator(
      this.ajv,
      pointer('paths', template.path, method, 'responses', status, 'content', declared, 'schema'),
    );
    if (!validate(body))
      problems.push(`body ${JSON.stringify(body).slice(0, 1000)} ${this.ajv.errorsText(validate.errors)}`);
    return problems;
  }
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResponseOptions } from './saml-idp';

const SECTION = '## Why a SAML sign-in was refused';

/**
 * The reasons docs/sso.md lists in "Why a SAML sign-in was refused": the first `…` of each row's
 * reason column, after a `400 \`CODE\`: ` that names another code.
 */
export const documentedSamlReasons: string[] = (() => {
  const doc = readFileSync(join(__dirname, '../../docs/sso.md'), 'utf8');
  const from = doc.indexOf(SECTION);
  const section = doc.slice(from, doc.indexOf('\n## ', from + SECTION.length));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| check |'))
    .map((line) => line.split('|')[2].replace(/^\s*\d{3} `[A-Z_]+`: /, ''))
    .map((cell) => /`([^`]+)`/.exec(cell)?.[1])
    .filter((reason): reason is string => reason !== undefined);
})();

/** A value of a reason that the test cannot know (the service's clock): any text. */
export const ANY = Symbol('any value');

/** The documented reasons that samlReason was asked for, in this test file. */
export const samlReasonsAsserted = new Set<string>();

/**
 * The reason the documentation words as `template`, its `{…}` filled with `values` in order: the
 * exact text, or a matcher where a value is ANY. Throws when docs/sso.md does not list the template.
 */
export function samlReason(template: string, ...values: (string | typeof ANY)[]): string {
  if (!documentedSamlReasons.includes(template)) throw new Error(`docs/sso.md does not list: ${template}`);
  const parts = template.split(/\{[^}]*\}/);
  if (parts.length - 1 !== values.length) throw new Error(`${template} takes ${parts.length - 1} values`);
  samlReasonsAsserted.add(template);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const filled = (fill: (value: string | typeof ANY) => string, part: (text: string) => string) =>
    parts.slice(1).reduce((text, next, index) => `${text}${fill(values[index])}${part(next)}`, part(parts[0]));
  if (!values.includes(ANY)) return filled(String, (text) => text);
  const pattern = filled((value) => (value === ANY ? '.+' : escape(String(value))), escape);
  return expect.stringMatching(new RegExp(`^${pattern}$`)) as unknown as string;
}

export type Value = string | typeof ANY;

/** The ACS's answer as supertest gives it. */
export interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, unknown>;
}
/** A connection's sign-in as a case builds it: a response to a new start, posted as XML or as form fields. */
export interface Context {
  id: string;
  email: string;
  acsUrl: string;
  entityId: string;
  idpEntityId: string;
  respond: (options?: Partial<ResponseOptions>) => Promise<string>;
  post: (xml: string) => Promise<Answer>;
  form: (fields: Record<string, string>) => Promise<Answer>;
}
/** What a case posts, the values of its reason, and the refusal when it is not 400 SSO_ASSERTION_INVALID. */
export interface Sent {
  send: () => Promise<Answer>;
  values: Value[];
  refusal?: { status?: number; code?: string; remembered?: boolean };
}
export type Case = [template: string, build: (ctx: Context) => Promise<Sent>, connection?: object];

/** `xml` posted; the reason's values. */
export const sending = (ctx: Context, xml: string, ...values: Value[]): Sent => ({ send: () => ctx.post(xml), values });

/** A response signed as `options` say, changed by `edit` after signing. */
export const edited = async (ctx: Context, edit: (xml: string) => string, options: Partial<ResponseOptions> = {}) =>
  edit(await ctx.respond(options));

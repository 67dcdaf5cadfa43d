import { HttpStatus } from '@nestjs/common';
import { filter as compileFilter, Filter, parse } from 'scim2-parse-filter';
import { ScimError } from './scim-errors';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const CORE_PREFIXES = ['urn:ietf:params:scim:schemas:core:2.0:user:', 'urn:ietf:params:scim:schemas:core:2.0:group:'];

/** A resource as PATCH sees it: its attributes as JSON. */
export type Resource = Record<string, unknown>;

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
}

/** The attribute names of the core schemas, so that `USERNAME` or `name.GivenName` land on the stored names. */
const KNOWN_NAMES = [
  'userName',
  'externalId',
  'displayName',
  'nickName',
  'profileUrl',
  'title',
  'userType',
  'preferredLanguage',
  'locale',
  'timezone',
  'active',
  'name',
  'formatted',
  'familyName',
  'givenName',
  'middleName',
  'honorificPrefix',
  'honorificSuffix',
  'emails',
  'phoneNumbers',
  'addresses',
  'members',
  'value',
  'type',
  'primary',
  'display',
  'employeeNumber',
  'department',
  'manager',
  'organization',
  'division',
  'costCenter',
];
const CANONICAL = new Map(KNOWN_NAMES.map((name) => [name.toLowerCase(), name]));
const MAX_OPERATIONS = 1_000;

const badPatch = (detail: string, scimType: 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue') =>
  new ScimError(HttpStatus.BAD_REQUEST, detail, scimType);

const isObject = (value: unknown): value is Resource =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body of a PATCH (RFC 7644 section 3.5.2): its operations, op names in any case. */
export function patchOperations(body: unknown): PatchOperation[] {
  const operations = isObject(body) ? (body.Operations ?? body.operations) : undefined;
  if (!Array.isArray(operations) || operations.length === 0)
    throw badPatch('A PatchOp body has a non-empty "Operations" array', 'invalidSyntax');
  if (operations.length > MAX_OPERATIONS) throw badPatch(`At most ${MAX_OPERATIONS} operations`, 'invalidSyntax');
  return operations.map((operation: unknown) => {
    if (!isObject(operation) || typeof operation.op !== 'string')
      throw badPatch('Each operation has an "op"', 'invalidSyntax');
    const op = operation.op.toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw badPatch(`Unknown operation "${operation.op}": add, replace or remove`, 'invalidSyntax');
    if (operation.path !== undefined && (typeof operation.path !== 'string' || operation.path.trim() === ''))
      throw badPatch('"path" is a non-empty string', 'invalidPath');
    return { op, path: operation.path as string | undefined, value: operation.value };
  });
}

interface ParsedPath {
  /** The object the attribute lives in: the resource, or its enterprise extension. */
  extension?: string;
  attribute: string;
  filter?: Filter;
  sub?: string;
}

const canonical = (name: string) => CANONICAL.get(name.toLowerCase()) ?? name;

/** `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, with or without a schema URN in front. */
export function parsePath(text: string): ParsedPath {
  let path = text.trim();
  let extension: string | undefined;
  const lower = path.toLowerCase();
  const core = CORE_PREFIXES.find((prefix) => lower.startsWith(prefix));
  if (core) path = path.slice(core.length);
  else if (lower.startsWith(`${ENTERPRISE_USER_SCHEMA.toLowerCase()}:`)) {
    extension = ENTERPRISE_USER_SCHEMA;
    path = path.slice(ENTERPRISE_USER_SCHEMA.length + 1);
  }
  const match = /^([A-Za-z$][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z$][\w$-]*))?$/s.exec(path);
  if (!match) throw badPatch(`The path "${text}" cannot be read`, 'invalidPath');
  let filter: Filter | undefined;
  if (match[2] !== undefined) {
    try {
      filter = parse(match[2]);
    } catch {
      throw badPatch(`The filter of the path "${text}" cannot be read`, 'invalidPath');
    }
  }
  return {
    ...(extension && { extension }),
    attribute: canonical(match[1]),
    ...(filter && { filter }),
    ...(match[3] !== undefined && { sub: canonical(match[3]) }),
  };
}

/** The key of `name` in `object`, matched case-insensitively, else the canonical spelling. */
function keyIn(object: Resource, name: string): string {
  const lower = name.toLowerCase();
  return Object.keys(object).find((key) => key.toLowerCase() === lower) ?? canonical(name);
}

function containerOf(resource: Resource, path: ParsedPath, create: boolean): Resource | undefined {
  if (!path.extension) return resource;
  const key = keyIn(resource, path.extension);
  if (!isObject(resource[key])) {
    if (!create) return undefined;
    resource[key] = {};
  }
  return resource[key] as Resource;
}

/** The simple `attr eq "value"` conditions of a filter: the element that an add or replace makes when none matches. */
function seedOf(filter: Filter): Resource | undefined {
  if (filter.op === 'eq') {
    const { attrPath, compValue } = filter as unknown as { attrPath: string; compValue: unknown };
    return { [canonical(attrPath)]: compValue };
  }
  if (filter.op === 'and') {
    const parts = (filter as unknown as { filters: Filter[] }).filters.map(seedOf);
    if (parts.every(Boolean)) return Object.assign({}, ...parts);
  }
  return undefined;
}

/** Filter matches compare strings without regard to case, as SCIM's caseExact false attributes do. */
function matcher(filter: Filter): (element: unknown) => boolean {
  const test = compileFilter(lowerCased(filter));
  return (element) => isObject(element) && test(lowerCasedValues(element));
}
function lowerCased(filter: Filter): Filter {
  const node = filter as unknown as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...node };
  if (typeof node.compValue === 'string') copy.compValue = node.compValue.toLowerCase();
  if (Array.isArray(node.filters)) copy.filters = (node.filters as Filter[]).map(lowerCased);
  if (node.filter) copy.filter = lowerCased(node.filter as Filter);
  if (node.valFilter) copy.valFilter = lowerCased(node.valFilter as Filter);
  return copy as unknown as Filter;
}
function lowerCasedValues(element: Resource): Resource {
  return Object.fromEntries(
    Object.entries(element).map(([key, value]) => [key, typeof value === 'string' ? value.toLowerCase() : value]),
  );
}

/** The `value` of a multi-valued element, for comparing members and e-mails. */
const valueOf = (element: unknown) => (isObject(element) ? element.value : element);

function applyOne(resource: Resource, operation: PatchOperation, pathText: string, value: unknown): void {
  const path = parsePath(pathText);
  const container = containerOf(resource, path, operation.op !== 'remove');
  if (!container) return;
  const key = keyIn(container, path.attribute);
  const current = container[key];

  if (path.filter) {
    const matches = matcher(path.filter);
    const list = Array.isArray(current) ? [...current] : [];
    const hits = list.filter(matches);
    if (operation.op === 'remove') {
      container[key] = path.sub
        ? list.map((element) => {
            if (!hits.includes(element)) return element;
            const { [keyIn(element as Resource, path.sub!)]: _, ...rest } = element as Resource;
            return rest;
          })
        : list.filter((element) => !hits.includes(element));
      return;
    }
    if (hits.length === 0) {
      const seed = seedOf(path.filter);
      if (!seed) throw badPatch(`No value matches the path "${pathText}"`, 'noTarget');
      list.push(path.sub ? { ...seed, [path.sub]: value } : { ...seed, ...(isObject(value) ? value : {}) });
      container[key] = list;
      return;
    }
    container[key] = list.map((element) => {
      if (!hits.includes(element)) return element;
      if (path.sub) return { ...(element as Resource), [keyIn(element as Resource, path.sub)]: value };
      return isObject(value) ? { ...(element as Resource), ...value } : value;
    });
    return;
  }

  if (path.sub) {
    const parent = isObject(current) ? { ...current } : {};
    if (operation.op === 'remove') delete parent[keyIn(parent, path.sub)];
    else parent[keyIn(parent, path.sub)] = value;
    container[key] = parent;
    return;
  }

  if (operation.op === 'remove') {
    // Entra: `{"op":"Remove","path":"members","value":[{"value":"…"}]}` removes those members only.
    if (Array.isArray(current) && Array.isArray(value) && value.length) {
      const removed = new Set(value.map(valueOf));
      container[key] = current.filter((element) => !removed.has(valueOf(element)));
    } else delete container[key];
    return;
  }
  if (operation.op === 'add' && Array.isArray(current)) {
    const added = Array.isArray(value) ? value : [value];
    const present = new Set(current.map(valueOf));
    container[key] = [...current, ...added.filter((element) => !present.has(valueOf(element)))];
    return;
  }
  if (operation.op === 'add' && isObject(current) && isObject(value)) {
    container[key] = { ...current, ...value };
    return;
  }
  container[key] = value;
}

/**
 * Applies the operations to a copy of the resource, in order (RFC 7644 section 3.5.2). Without a
 * path, an add or replace's value is an object whose keys are paths (Entra sends `name.givenName`
 * and extension URNs as keys). `readOnly` attributes (id, meta) cannot be targeted.
 */
export function applyPatch(resource: Resource, operations: PatchOperation[], readOnly: string[]): Resource {
  const patched = structuredClone(resource);
  const refused = new Set(readOnly.map((name) => name.toLowerCase()));
  for (const operation of operations) {
    if (operation.path === undefined) {
      if (operation.op === 'remove') throw badPatch('A remove needs a path', 'noTarget');
      if (!isObject(operation.value)) throw badPatch('Without a path, the value is an object', 'invalidValue');
      for (const [path, value] of Object.entries(operation.value)) {
        if (refused.has(path.toLowerCase()) || path === 'schemas') continue;
        if (path.toLowerCase() === ENTERPRISE_USER_SCHEMA.toLowerCase() && isObject(value)) {
          for (const [inner, innerValue] of Object.entries(value))
            applyOne(patched, operation, `${ENTERPRISE_USER_SCHEMA}:${inner}`, innerValue);
        } else applyOne(patched, operation, path, value);
      }
      continue;
    }
    const target = parsePath(operation.path);
    if (refused.has(target.attribute.toLowerCase()) && !target.extension)
      throw new ScimError(HttpStatus.BAD_REQUEST, `"${target.attribute}" is read-only`, 'mutability');
    applyOne(patched, operation, operation.path, operation.value);
  }
  return patched;
}

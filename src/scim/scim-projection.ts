import { HttpStatus } from '@nestjs/common';
import { ScimError } from './scim-errors';
import type { Resource } from './scim-patch';
import type { ListResponse } from './scim-resources';

/** Attributes with `returned: always` on every resource this service keeps (RFC 7643 section 3.1). */
const ALWAYS = new Set(['id', 'schemas']);
const MAX_NAMES = 100;
const MAX_NAME_LENGTH = 300;
/** RFC 7644 section 3.10's attribute notation: `attr`, `attr.sub`, each with or without a schema URN in front. */
const ATTRIBUTE_NAME = /^[A-Za-z$][\w$:.-]*$/;

/** Which attributes a resource is shown with: a tree of lower-cased names, `true` where all below is meant. */
type Selection = Map<string, Selection | true>;

const isObject = (value: unknown): value is Resource =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const invalidValue = (detail: string) => new ScimError(HttpStatus.BAD_REQUEST, detail, 'invalidValue');

/** `attributes` or `excludedAttributes`: comma-separated (a query), or a list of strings (a SearchRequest). */
function namesOf(parameter: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const parts = Array.isArray(value) ? value : [value];
  if (!parts.every((part) => typeof part === 'string'))
    throw invalidValue(`"${parameter}" is a comma-separated list of attribute names`);
  const names = (parts as string[])
    .flatMap((part) => part.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length > MAX_NAMES) throw invalidValue(`"${parameter}" names at most ${MAX_NAMES} attributes`);
  const bad = names.find((name) => name.length > MAX_NAME_LENGTH || !ATTRIBUTE_NAME.test(name));
  if (bad !== undefined) throw invalidValue(`"${bad}" in "${parameter}" is not an attribute name`);
  return names.map((name) => name.toLowerCase());
}

/**
 * Where a name points in this resource: its segments below the resource. A name with a schema URN
 * in front is read against the resource's schemas and extension objects: the core schema's
 * attributes are at the top, an extension's inside its object. A URN the resource lacks points nowhere.
 */
function pathOf(name: string, resource: Resource): string[] | null {
  const schemas = Array.isArray(resource.schemas) ? resource.schemas : [];
  const core = typeof schemas[0] === 'string' ? schemas[0].toLowerCase() : undefined;
  const urns = [...schemas, ...Object.keys(resource)]
    .filter((urn): urn is string => typeof urn === 'string' && urn.toLowerCase().startsWith('urn:'))
    .map((urn) => urn.toLowerCase())
    .sort((a, b) => b.length - a.length);
  for (const urn of urns) {
    const below = urn === core ? [] : [urn];
    if (name === urn) return below;
    if (name.startsWith(`${urn}:`)) return [...below, ...name.slice(urn.length + 1).split('.')];
  }
  return name.startsWith('urn:') ? null : name.split('.');
}

function selectionOf(names: string[], resource: Resource): Selection | true {
  const root: Selection = new Map();
  for (const name of names) {
    const path = pathOf(name, resource);
    if (!path) continue;
    if (path.length === 0) return true;
    let node = root;
    for (const [index, segment] of path.entries()) {
      const existing = node.get(segment);
      if (existing === true) break;
      if (index === path.length - 1) {
        node.set(segment, true);
        break;
      }
      const next: Selection = existing ?? new Map();
      node.set(segment, next);
      node = next;
    }
  }
  return root;
}

/** The parts of a value the selection names; undefined when none. A multi-valued attribute: each element's parts. */
function pick(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) {
    const elements = value.map((element) => pick(element, selection)).filter((element) => element !== undefined);
    return elements.length ? elements : undefined;
  }
  if (!isObject(value)) return undefined;
  const picked: Resource = {};
  for (const [key, inner] of Object.entries(value)) {
    const selected = selection.get(key.toLowerCase());
    const part = selected === undefined ? undefined : selected === true ? inner : pick(inner, selected);
    if (part !== undefined) picked[key] = part;
  }
  return Object.keys(picked).length ? picked : undefined;
}

/** The value without the parts the selection names; undefined when nothing is left of an object it emptied. */
function drop(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) {
    const elements = value.map((element) => drop(element, selection)).filter((element) => element !== undefined);
    return elements.length || !value.length ? elements : undefined;
  }
  if (!isObject(value)) return value;
  const kept: Resource = {};
  for (const [key, inner] of Object.entries(value)) {
    const selected = selection.get(key.toLowerCase());
    if (selected === true) continue;
    const part = selected === undefined ? inner : drop(inner, selected);
    if (part !== undefined) kept[key] = part;
  }
  return Object.keys(kept).length || !Object.keys(value).length ? kept : undefined;
}

/**
 * RFC 7644 section 3.9: `attributes` replaces the attributes a resource is shown with by those
 * named, `excludedAttributes` takes the named ones away; attributes returned always (id, schemas)
 * stay. Names are compared without regard to case; unknown names are ignored.
 */
export class Projection {
  constructor(
    /** Lower-cased names; null when the request names none (every attribute is shown). */
    readonly attributes: string[] | null,
    readonly excludedAttributes: string[],
  ) {}

  resource(resource: Resource): Resource {
    let shown = resource;
    if (this.attributes) {
      const selection = selectionOf(this.attributes, resource);
      if (selection !== true)
        shown = Object.fromEntries(
          Object.entries(resource).flatMap(([key, value]): [string, unknown][] => {
            if (ALWAYS.has(key)) return [[key, value]];
            const selected = selection.get(key.toLowerCase());
            const part = selected === undefined ? undefined : selected === true ? value : pick(value, selected);
            return part === undefined ? [] : [[key, part]];
          }),
        );
    }
    if (this.excludedAttributes.length) {
      const selection = selectionOf(this.excludedAttributes, shown);
      if (selection !== true) {
        for (const key of ALWAYS) selection.delete(key);
        shown = (drop(shown, selection) as Resource | undefined) ?? {};
      }
    }
    return shown;
  }

  /** Whether `key` of `probe`, a resource that has it, is shown: a read of an attribute not shown is left out. */
  shows(probe: Resource, key: string): boolean {
    return this.resource(probe)[key] !== undefined;
  }

  list(list: ListResponse): ListResponse {
    return { ...list, Resources: list.Resources.map((resource) => this.resource(resource)) };
  }
}

/** The projection that `attributes` and `excludedAttributes` ask for (a query's, or a SearchRequest's); 400 invalidValue. */
export function readProjection(parameters: { attributes?: unknown; excludedAttributes?: unknown }): Projection {
  const attributes = namesOf('attributes', parameters.attributes);
  return new Projection(
    attributes.length ? attributes : null,
    namesOf('excludedAttributes', parameters.excludedAttributes),
  );
}

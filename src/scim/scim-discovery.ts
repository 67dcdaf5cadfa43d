import { GROUP_SCHEMA, MAX_COUNT, SCIM_BASE_PATH, USER_SCHEMA } from './scim-resources';
import { ENTERPRISE_USER_SCHEMA } from './scim-patch';

const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

const meta = (base: string, resourceType: string, path: string) => ({
  resourceType,
  location: `${base}${SCIM_BASE_PATH}/${path}`,
});

/** RFC 7643 section 5: what this service provider supports; maxPayloadSize belongs to bulk alone. */
export const serviceProviderConfig = (base: string) => ({
  schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_COUNT },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'OAuth Bearer Token',
      description:
        'A SCIM token made by an owner at POST /api/org/scim/tokens, sent as `Authorization: Bearer <secret>`',
      primary: true,
    },
  ],
  meta: meta(base, 'ServiceProviderConfig', 'ServiceProviderConfig'),
});

/** RFC 7643 section 6. */
export const resourceTypes = (base: string) => [
  {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A member of the organisation',
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
    meta: meta(base, 'ResourceType', 'ResourceTypes/User'),
  },
  {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'A group of members; its displayName may map to a role',
    schema: GROUP_SCHEMA,
    meta: meta(base, 'ResourceType', 'ResourceTypes/Group'),
  },
];

interface AttributeOptions {
  type?: string;
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: string;
  returned?: string;
  uniqueness?: string;
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: object[];
}
const attribute = (name: string, description: string, options: AttributeOptions = {}) => ({
  name,
  type: options.type ?? 'string',
  multiValued: options.multiValued ?? false,
  description,
  required: options.required ?? false,
  caseExact: options.caseExact ?? false,
  mutability: options.mutability ?? 'readWrite',
  returned: options.returned ?? 'default',
  uniqueness: options.uniqueness ?? 'none',
  ...(options.canonicalValues && { canonicalValues: options.canonicalValues }),
  ...(options.referenceTypes && { referenceTypes: options.referenceTypes }),
  ...(options.subAttributes && { subAttributes: options.subAttributes }),
});
const multiValue = (description: string) => [
  attribute('value', description),
  attribute('display', 'A human-readable name'),
  attribute('type', 'A label, such as "work"'),
  attribute('primary', 'Whether it is the primary value', { type: 'boolean' }),
];

/** RFC 7643 section 7: the schemas of the resources this service keeps. */
export const schemas = (base: string) => [
  {
    schemas: [SCHEMA_SCHEMA],
    id: USER_SCHEMA,
    name: 'User',
    description: 'A member of the organisation',
    attributes: [
      attribute('userName', 'Unique within the organisation, compared without regard to case; an e-mail address', {
        required: true,
        uniqueness: 'server',
      }),
      attribute('name', 'The person’s name', {
        type: 'complex',
        subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map(
          (name) => attribute(name, `The ${name}`),
        ),
      }),
      attribute('displayName', 'The name to show'),
      attribute(
        'active',
        'True: a member of the organisation. False, or unassigned (removed by a PATCH), detaches the person; ' +
          'true brings them back with their role. A create or PUT without it is true',
        { type: 'boolean' },
      ),
      attribute('emails', 'E-mail addresses; the primary one is the person’s address', {
        type: 'complex',
        multiValued: true,
        subAttributes: multiValue('The address'),
      }),
      attribute('groups', 'The groups the user is in; changed through the Groups', {
        type: 'complex',
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          attribute('value', 'The group id', { mutability: 'readOnly', caseExact: true }),
          attribute('$ref', 'The group’s URI', {
            type: 'reference',
            referenceTypes: ['Group'],
            mutability: 'readOnly',
          }),
          attribute('display', 'The group’s displayName', { mutability: 'readOnly' }),
          attribute('type', 'How the user is in it: "direct" (a member of the group)', {
            mutability: 'readOnly',
            canonicalValues: ['direct'],
          }),
        ],
      }),
    ],
    meta: meta(base, 'Schema', `Schemas/${USER_SCHEMA}`),
  },
  {
    schemas: [SCHEMA_SCHEMA],
    id: GROUP_SCHEMA,
    name: 'Group',
    description: 'A group of members',
    attributes: [
      attribute('displayName', 'Unique within the organisation; the role mapping’s key', {
        required: true,
        uniqueness: 'server',
      }),
      attribute('members', 'The group’s users', {
        type: 'complex',
        multiValued: true,
        subAttributes: [
          attribute('value', 'A User id', { caseExact: true, mutability: 'immutable' }),
          attribute('$ref', 'The User’s URI', { type: 'reference', referenceTypes: ['User'], mutability: 'immutable' }),
          attribute('display', 'The userName', { mutability: 'readOnly' }),
        ],
      }),
    ],
    meta: meta(base, 'Schema', `Schemas/${GROUP_SCHEMA}`),
  },
  {
    schemas: [SCHEMA_SCHEMA],
    id: ENTERPRISE_USER_SCHEMA,
    name: 'EnterpriseUser',
    description: 'Enterprise attributes, kept as given',
    attributes: ['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((name) =>
      attribute(name, `The ${name}`),
    ),
    meta: meta(base, 'Schema', `Schemas/${ENTERPRISE_USER_SCHEMA}`),
  },
];

/**
 * The typed client of the tenant invitation service. schema.d.ts is generated from the service's
 * OpenAPI document by `npm run client:generate` (never edited by hand); every call goes through
 * openapi-fetch, typed by path, method, parameters, body and answer (docs/client.md).
 */
import createClient from 'openapi-fetch';
import type { Client, ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };

/**
 * The client of every route. Named from openapi-fetch's own type, never inferred: an inferred type
 * would be written into the declarations as `import("openapi-fetch").Client`, which a CommonJS
 * package resolves to openapi-fetch's `export =` typings, where TypeScript 7 finds no `Client`.
 */
export type TenantServiceClient = Client<paths>;

/** A client for one service address: `createTenantServiceClient({ baseUrl: 'https://tenants.example.com' })`. */
export const createTenantServiceClient = (options: ClientOptions): TenantServiceClient => createClient<paths>(options);

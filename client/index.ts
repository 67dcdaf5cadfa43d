/**
 * The typed client of the tenant invitation service. schema.d.ts is generated from the service's
 * OpenAPI document by `npm run client:generate` (never edited by hand); every call goes through
 * openapi-fetch, typed by path, method, parameters, body and answer (docs/client.md).
 */
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };

/** A client for one service address: `createTenantServiceClient({ baseUrl: 'https://tenants.example.com' })`. */
export const createTenantServiceClient = (options: ClientOptions) => createClient<paths>(options);

export type TenantServiceClient = ReturnType<typeof createTenantServiceClient>;

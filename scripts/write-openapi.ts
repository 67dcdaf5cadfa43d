/**
 * `npm run openapi:write`: writes the OpenAPI document that the server serves at
 * /api/openapi.json to openapi.json, so that a portal can generate its client from the
 * repository. test/api-docs.e2e-spec.ts fails when the two differ.
 */
import 'reflect-metadata';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../src/api-docs/api-docs';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS } from '../src/app.setup';
import { parseConfig } from '../src/config/app-config';

const OPENAPI_FILE = join(__dirname, '..', 'openapi.json');

async function writeOpenApi(): Promise<void> {
  // The embedded defaults, whatever this shell's environment or .env say: the document names the cookie.
  const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: 'sqlite::memory:' });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forConfig(config)] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ ...APP_OPTIONS, logger: false });
  try {
    writeFileSync(OPENAPI_FILE, `${JSON.stringify(buildOpenApiDocument(app, config), null, 2)}\n`);
  } finally {
    await app.close();
  }
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}

void writeOpenApi();

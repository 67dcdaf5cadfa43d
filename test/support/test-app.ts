import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { APP_OPTIONS, configureApp } from '../../src/app.setup';
import { AppConfig, parseConfig } from '../../src/config/app-config';
import { IdentityStore } from '../../src/identity/identity-store';
import { buildOpenApiDocument } from '../../src/api-docs/api-docs';
import { committedDocument, documentedAgent, testModeDocument } from './documented-http';
import { OpenApiDocument } from './openapi-validation';
import { createTestDatabase, TestDatabase } from './test-database';
import { e2eIdentityMode, LocalTestIdentity, TestIdentity } from './test-identity';

export const TEST_JWT_SECRET = 'e2e-test-secret-at-least-32-characters-long';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  dataSource: DataSource;
  /**
   * A supertest agent bound to the app's HTTP server, whose every answer is checked against the API
   * document (documented-http.ts): a request meant to be invalid is wrapped in invalidRequest().
   */
  http: TestAgent;
  /** The app's identity store: how suites read users back, in either mode. */
  identity: IdentityStore;
  /** How suites create users and sign them in (see TestIdentity). */
  testIdentity: TestIdentity;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables on top of the test defaults. */
  env?: Record<string, string>;
  /** Share a database created by the caller (several instances); otherwise a fresh one is made and dropped. */
  database?: TestDatabase;
  /**
   * Take the users (in cognito mode: the user pool) of another database. Apps that live side
   * by side in one process must share the pool: passport keeps one session strategy per
   * process, the last app's, so each app checks tokens against the newest app's pool.
   */
  identityOf?: TestDatabase;
}

/** Boots the real app in-process, through the same configureApp as main.ts, on real migrations. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const testIdentity = await createTestIdentity(options.identityOf ?? database);
  const config = parseConfig({
    NODE_ENV: 'test',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    DATABASE_URL: database.url,
    // The outbox polls and retries quickly, so that suites wait on e-mails for milliseconds.
    OUTBOX_POLL_INTERVAL_MS: '200',
    OUTBOX_RETRY_BASE_MS: '100',
    OUTBOX_RETRY_MAX_MS: '1000',
    ...testIdentity.env,
    ...options.env,
  });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forConfig(config)] }).compile();
  const app = configureApp(moduleRef.createNestApplication<NestExpressApplication>({ ...APP_OPTIONS, logger: false }));
  await app.init();
  if (testIdentity instanceof LocalTestIdentity) testIdentity.attach(app.get(DataSource), config.authJwtSecret);
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    http: documentedAgent(request(app.getHttpServer()), () =>
      config.testMode.enabled
        ? testModeDocument(() => buildOpenApiDocument(app, config) as unknown as OpenApiDocument)
        : committedDocument(),
    ),
    identity: app.get(IdentityStore),
    testIdentity,
    close: async () => {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * The identity backend of this e2e project (E2E_IDENTITY): local by default. In cognito mode
 * each test database has its own user pool in the emulator, shared by the apps on that database.
 */
async function createTestIdentity(database: TestDatabase): Promise<TestIdentity> {
  if (e2eIdentityMode() === 'cognito') {
    const { CognitoTestIdentity } = await import('./cognito-test-identity');
    return CognitoTestIdentity.forDatabase(database.url);
  }
  return new LocalTestIdentity();
}

import { CognitoEmulator, startCognitoEmulator } from './cognito-emulator';

/**
 * jest globalSetup of the e2e:cognito project: one cognito-local for the whole run. The endpoint
 * reaches the test workers through the environment (they are started after this runs); each
 * test app then seeds its own user pool in it (cognito-test-identity.ts).
 */
export default async function startEmulator(): Promise<void> {
  const emulator = await startCognitoEmulator();
  process.env.E2E_COGNITO_ENDPOINT = emulator.endpoint;
  (globalThis as { cognitoEmulator?: CognitoEmulator }).cognitoEmulator = emulator;
}

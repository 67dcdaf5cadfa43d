import { CognitoEmulator } from './cognito-emulator';

/** jest globalTeardown of the e2e:cognito project: stops the emulator that globalSetup started (that PID only). */
export default async function stopEmulator(): Promise<void> {
  const holder = globalThis as { cognitoEmulator?: CognitoEmulator };
  await holder.cognitoEmulator?.stop();
  delete holder.cognitoEmulator;
  delete process.env.E2E_COGNITO_ENDPOINT;
}

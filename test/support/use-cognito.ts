// e2e:cognito: the app's identity store is a cognito-local user pool; the database is SQLite.
process.env.E2E_IDENTITY = 'cognito';
process.env.E2E_DATABASE = 'sqlite';
// The app's SDK client takes credentials from the standard chain; the emulator checks none,
// and a developer's own AWS credentials must never be used against it.
process.env.AWS_ACCESS_KEY_ID = 'local';
process.env.AWS_SECRET_ACCESS_KEY = 'local';
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;

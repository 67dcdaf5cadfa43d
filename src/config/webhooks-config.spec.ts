import { parseConfig } from './app-config';

describe(`${parseConfig.name}: webhooks`, () => {
  const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

  it('are off by default, with the documented timings', () => {
    expect(parseConfig({}).webhooks).toEqual({
      urls: [],
      secret: undefined,
      refusePrivateAddresses: false,
      timeoutMs: 5_000,
      pollIntervalMs: 1_000,
      maxAttempts: 12,
      retryBaseMs: 5_000,
      retryMaxMs: 3_600_000,
    });
  });

  it('read WEBHOOK_URLS (comma-separated, duplicates once) and a whsec_ secret, with or without its prefix', () => {
    const config = parseConfig({
      WEBHOOK_URLS: 'https://a.example/hook, http://b.example:8080/x,https://a.example/hook',
      WEBHOOK_SECRET: SECRET,
    });
    expect(config.webhooks).toMatchObject({
      urls: ['https://a.example/hook', 'http://b.example:8080/x'],
      secret: SECRET,
    });
    expect(parseConfig({ WEBHOOK_SECRET: SECRET.slice('whsec_'.length) }).webhooks.secret).toBe(
      SECRET.slice('whsec_'.length),
    );
  });

  it('refuse WEBHOOK_URLS without WEBHOOK_SECRET, and a secret that is not 24 to 64 bytes of base64', () => {
    expect(() => parseConfig({ WEBHOOK_URLS: 'https://a.example/hook' })).toThrow(
      /^Invalid configuration: WEBHOOK_SECRET must be set when WEBHOOK_URLS is$/,
    );
    for (const secret of [
      'whsec_short',
      `whsec_${Buffer.alloc(16).toString('base64')}`,
      `whsec_${Buffer.alloc(65).toString('base64')}`,
      'whsec_not base64 at all!!!!!!!!!!!!!!!!',
    ]) {
      expect(() => parseConfig({ WEBHOOK_SECRET: secret })).toThrow(
        /^Invalid configuration: WEBHOOK_SECRET must be a Standard Webhooks secret/,
      );
    }
  });

  it('allow http(s) URLs only, without credentials', () => {
    expect(() => parseConfig({ WEBHOOK_URLS: 'ftp://a.example/x', WEBHOOK_SECRET: SECRET })).toThrow(
      /^Invalid configuration: WEBHOOK_URLS must use http or https/,
    );
    expect(() => parseConfig({ WEBHOOK_URLS: 'file:///etc/passwd', WEBHOOK_SECRET: SECRET })).toThrow(
      /^Invalid configuration: WEBHOOK_URLS must use http or https/,
    );
    expect(() => parseConfig({ WEBHOOK_URLS: 'not a url', WEBHOOK_SECRET: SECRET })).toThrow(
      /^Invalid configuration: WEBHOOK_URLS must be a URL/,
    );
    expect(() => parseConfig({ WEBHOOK_URLS: 'https://user:pw@a.example/x', WEBHOOK_SECRET: SECRET })).toThrow(
      /^Invalid configuration: WEBHOOK_URLS must not carry credentials/,
    );
  });

  it('in production, refuse private addresses unless WEBHOOK_ALLOW_PRIVATE=true; elsewhere allow them', () => {
    const production = { NODE_ENV: 'production', AUTH_JWT_SECRET: 'k'.repeat(32), WEBHOOK_SECRET: SECRET };
    expect(
      parseConfig({ ...production, WEBHOOK_URLS: 'https://hooks.example/x' }).webhooks.refusePrivateAddresses,
    ).toBe(true);
    for (const url of [
      'http://127.0.0.1:9000/x',
      'http://localhost/x',
      'http://[::1]/x',
      'http://10.0.0.5/x',
      'http://169.254.169.254/latest',
    ]) {
      expect(() => parseConfig({ ...production, WEBHOOK_URLS: url })).toThrow(
        /^Invalid configuration: WEBHOOK_URLS must not name a loopback, link-local or private address in production/,
      );
    }
    expect(
      parseConfig({ ...production, WEBHOOK_URLS: 'http://10.0.0.5/x', WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks,
    ).toMatchObject({
      urls: ['http://10.0.0.5/x'],
      refusePrivateAddresses: false,
    });
    expect(
      parseConfig({ WEBHOOK_URLS: 'http://127.0.0.1:9000/x', WEBHOOK_SECRET: SECRET }).webhooks.refusePrivateAddresses,
    ).toBe(false);
  });

  it('read the timings, within bounds', () => {
    const env = {
      WEBHOOK_TIMEOUT_MS: '300',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_MS: '400',
    };
    expect(parseConfig(env).webhooks).toMatchObject({
      timeoutMs: 300,
      pollIntervalMs: 50,
      maxAttempts: 3,
      retryBaseMs: 100,
      retryMaxMs: 400,
    });
    expect(() => parseConfig({ WEBHOOK_TIMEOUT_MS: '60000' })).toThrow(
      /^Invalid configuration: WEBHOOK_TIMEOUT_MS must be a whole number from 100 to 30000/,
    );
    expect(() => parseConfig({ WEBHOOK_RETRY_BASE_MS: '5000', WEBHOOK_RETRY_MAX_MS: '1000' })).toThrow(
      /^Invalid configuration: WEBHOOK_RETRY_MAX_MS must not be less than WEBHOOK_RETRY_BASE_MS/,
    );
  });
});

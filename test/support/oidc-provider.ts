import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * How long the provider's process may take to print its address: loading oidc-provider, an ES module
 * of its own size, took over 15 s once when CI ran three projects' suites at once on two cores.
 */
export const PROVIDER_START_TIMEOUT_MS = 60_000;
/** The hook that starts it: beyond jest's default test timeout. */
export const PROVIDER_HOOK_TIMEOUT_MS = PROVIDER_START_TIMEOUT_MS + 5_000;

/**
 * scripts/dev-oidc.mjs in a process of its own (oidc-provider is an ES module): a real OpenID
 * provider on the loopback, its next person and its next forged ID token chosen over HTTP.
 */
export class TestOidcProvider {
  issuer = '';
  clientId = '';
  clientSecret = '';
  private process?: ChildProcess;

  /**
   * `basicCredentials: 'raw'`: the strict mode, which takes HTTP Basic credentials as they come and
   * does not form-decode them (as Glewlwyd does): a client id with a `-` fails by client_secret_basic.
   */
  async start(
    clientId = 'portal',
    clientSecret = 'portal-secret-0123456789',
    { basicCredentials = 'form-decoded' }: { basicCredentials?: 'form-decoded' | 'raw' } = {},
  ): Promise<void> {
    const script = join(__dirname, '..', '..', 'scripts', 'dev-oidc.mjs');
    const args = ['--client-id', clientId, '--client-secret', clientSecret, '--basic-credentials', basicCredentials];
    this.process = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    let timer: NodeJS.Timeout | undefined;
    const line = await Promise.race([
      new Promise<string>((resolve) => createInterface({ input: this.process!.stdout! }).once('line', resolve)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the OpenID provider did not start')), PROVIDER_START_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    Object.assign(this, JSON.parse(line));
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdout?.destroy();
    child.kill();
    await exited;
  }

  /** Who signs in next. */
  async nextLogin(person: { sub: string; email: string; email_verified?: boolean; groups?: string[] }): Promise<void> {
    await fetch(`${this.issuer}/__test/login`, { method: 'POST', body: JSON.stringify(person) });
  }

  /**
   * The next ID token, as a forger would send it: claims changed and re-signed (by another key, under
   * another key id), or `alg` none or HS256; `body`: the token response's fields replaced (null: removed).
   */
  async tamperNext(change: {
    claims?: Record<string, unknown>;
    alg?: 'none' | 'HS256';
    key?: 'other';
    kid?: string;
    body?: Record<string, unknown>;
  }): Promise<void> {
    await fetch(`${this.issuer}/__test/tamper`, { method: 'POST', body: JSON.stringify(change) });
  }

  /** The discovery document it serves from now on: the fields given replace its own (none: its own). */
  async changeDiscovery(fields: Record<string, unknown>): Promise<void> {
    await fetch(`${this.issuer}/__test/discovery`, { method: 'POST', body: JSON.stringify(fields) });
  }

  /**
   * A browser at the provider: follows its redirects from `authorizationUrl`, with its cookies, until
   * one leaves the provider; that address (the service's callback with code and state).
   */
  async authorize(authorizationUrl: string): Promise<URL> {
    const cookies = new Map<string, string>();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin !== this.issuer) return url;
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const set of response.headers.getSetCookie()) {
        const [pair] = set.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (!location)
        throw new Error(`The provider answered ${response.status} at ${url.href}: ${await response.text()}`);
      url = new URL(location, url);
    }
    throw new Error('Too many redirects at the provider');
  }
}

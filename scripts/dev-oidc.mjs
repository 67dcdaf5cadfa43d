// An OpenID provider on the loopback for trying single sign-on locally (docs/sso.md), and the one the
// tests sign in with: oidc-provider (a devDependency), one confidential client, and a person who is
// signed in at once, with no login page:
//   node scripts/dev-oidc.mjs [--port 4000] [--client-id dev-client] [--client-secret dev-secret]
//        [--email kim@acme.test] [--sub kim] [--basic-credentials form-decoded|raw]
// It prints one line of JSON: {"issuer", "clientId", "clientSecret"}. Any redirect URI on any host is
// accepted (a development provider). For tests, POST /__test/login {"sub","email","email_verified"?,
// "groups"?} chooses who signs in next (groups: the `groups` claim, sent when the scope groups is
// asked), and POST /__test/tamper {"claims"?, "alg"?, "key"?, "kid"?, "body"?} changes the next ID
// token the token endpoint answers (re-signed with the provider's key, or with another key ("key":
// "other"), or "none", or HS256 keyed with the public key; under another key id) or the answer itself
// ("body": fields that replace its own, null removing one), so that a test can send what a forger would;
// POST /__test/discovery {field: value, …} changes the discovery document it serves from then on.
// --basic-credentials raw: HTTP Basic client credentials are taken as they come, not form-decoded as
// RFC 6749 §2.3.1 has it (as Glewlwyd does), so that a client id with a `-`, which a client sends as
// %2D, is refused by client_secret_basic and accepted by client_secret_post.
import { createHmac, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import { SignJWT, importJWK } from 'jose';

// oidc-provider warns that it wants Node.js 22 and that its in-memory store is for development only:
// both are what this development provider is, and on stderr they would bury its one line of output.
const warn = console.warn;
const EXPECTED_WARNINGS = /^oidc-provider WARNING: .*(Unsupported runtime|in-memory adapter)/;
console.warn = (...args) => (EXPECTED_WARNINGS.test(String(args[0])) ? undefined : warn(...args));
const { default: Provider } = await import('oidc-provider');

const options = {
  port: '0',
  'client-id': 'dev-client',
  'client-secret': 'dev-secret',
  email: 'kim@acme.test',
  sub: 'kim',
  'basic-credentials': 'form-decoded',
};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const name = args[i].replace(/^--/, '');
  if (!(name in options) || args[i + 1] === undefined) {
    console.error(
      `Unknown option ${args[i]}; options: ${Object.keys(options)
        .map((o) => `--${o}`)
        .join(' ')}`,
    );
    process.exit(1);
  }
  options[name] = args[i + 1];
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();
const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
const publicPem = createPublicKey(privateKey).export({ format: 'pem', type: 'spki' });
const signingKey = await importJWK(privateJwk, 'RS256');
// A key that is not the provider's, under the provider's key id: what a forger holds.
const forgerKey = await importJWK(
  { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid },
  'RS256',
);

let next = { sub: options.sub, email: options.email, email_verified: true };
let tamper = null;
let discoveryChanges = {};

/** Basic credentials taken as they come: encoded again, so that oidc-provider's decoding gives them back as sent. */
function rawBasicCredentials(request) {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !token) return;
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  const [id, secret] = [decoded.slice(0, at), decoded.slice(at + 1)].map(encodeURIComponent);
  request.headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** The response's JSON body, changed by `change` before it is sent. */
function rewriteJson(response, change) {
  const end = response.end.bind(response);
  response.end = (chunk, ...rest) => {
    Promise.resolve(change(JSON.parse(String(chunk)))).then((body) => {
      if (body === undefined) return end(chunk, ...rest);
      const text = JSON.stringify(body);
      response.setHeader('content-length', Buffer.byteLength(text));
      end(text);
    });
    return response;
  };
}

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** The ID token as a forger would send it instead. */
async function tampered(idToken, change) {
  const claims = { ...JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString('utf8')), ...change.claims };
  if (change.alg === 'none') return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
  if (change.alg === 'HS256') {
    const input = `${b64({ alg: 'HS256', typ: 'JWT', kid })}.${b64(claims)}`;
    return `${input}.${createHmac('sha256', publicPem).update(input).digest('base64url')}`;
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: change.kid ?? kid })
    .sign(change.key === 'other' ? forgerKey : signingKey);
}

const server = http.createServer();
await new Promise((resolve) => server.listen(Number(options.port), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: options['client-id'],
      client_secret: options['client-secret'],
      redirect_uris: ['http://localhost/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  jwks: { keys: [privateJwk] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
  // The ID token carries the e-mail (the service reads it there, not from userinfo).
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: false } },
  pkce: { required: () => true },
  interactions: { url: (_, interaction) => `/interaction/${interaction.uid}` },
  findAccount: (_, id) => ({
    accountId: id,
    claims: () => ({ sub: id, email: next.email, email_verified: next.email_verified, name: id, groups: next.groups }),
  }),
  ttl: { Session: 60, Interaction: 600, Grant: 600, AuthorizationCode: 60, IdToken: 3600, AccessToken: 600 },
});
// A development provider: any redirect URI is accepted.
provider.Client.prototype.redirectUriAllowed = () => true;

const callback = provider.callback();
const readJson = (request) =>
  new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body ? JSON.parse(body) : {}));
  });

server.on('request', async (request, response) => {
  try {
    const { pathname } = new URL(request.url, issuer);
    if (request.method === 'POST' && pathname === '/__test/login') {
      next = { email_verified: true, ...(await readJson(request)) };
      return response.writeHead(204).end();
    }
    if (request.method === 'POST' && pathname === '/__test/tamper') {
      tamper = await readJson(request);
      return response.writeHead(204).end();
    }
    if (request.method === 'POST' && pathname === '/__test/discovery') {
      discoveryChanges = await readJson(request);
      return response.writeHead(204).end();
    }
    if (pathname === '/.well-known/openid-configuration' && Object.keys(discoveryChanges).length)
      rewriteJson(response, (document) => ({ ...document, ...discoveryChanges }));
    if (options['basic-credentials'] === 'raw') rawBasicCredentials(request);
    if (pathname.startsWith('/interaction/')) {
      // Signed in at once: the person chosen, every scope asked for granted.
      const details = await provider.interactionDetails(request, response);
      if (details.prompt.name === 'login')
        return await provider.interactionFinished(request, response, { login: { accountId: next.sub } });
      const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope));
      return await provider.interactionFinished(request, response, { consent: { grantId: await grant.save() } });
    }
    if (request.method === 'POST' && pathname === '/token' && tamper) {
      const change = tamper;
      tamper = null;
      rewriteJson(response, async (body) => {
        if (!body.id_token) return undefined;
        const answer = { ...body, id_token: await tampered(body.id_token, change), ...change.body };
        return Object.fromEntries(Object.entries(answer).filter(([, value]) => value !== null));
      });
    }
    callback(request, response);
  } catch (error) {
    response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  }
});

console.log(JSON.stringify({ issuer, clientId: options['client-id'], clientSecret: options['client-secret'] }));
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    server.close(() => process.exit(0));
    // Kept-alive connections would hold the close up.
    server.closeAllConnections();
  });

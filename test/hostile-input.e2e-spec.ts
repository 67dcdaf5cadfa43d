import type { Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { LINGER_MS } from '../src/common/lingering-close';
import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { outboxSettled } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { newInviter } from './support/inviting';
import { SmtpCatcher } from './support/smtp-catcher';
import { FORBIDDEN, UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

const INVALID_EMAIL = { error: 'Invalid email address' };
const TOO_LARGE = { error: 'Request body too large' };
const TOO_DEEP = { error: 'JSON body nested too deeply' };
const NOT_UTF8 = { error: 'Unsupported charset: JSON must be UTF-8' };

/** What came back on a raw connection, and whether the server closed it. */
interface RawExchange {
  response: string;
  closedByServer: boolean;
}

/**
 * Sends `head` and then `body` parts on a raw TCP connection without ever finishing the body,
 * and collects what the server answers within `waitMs`: a server that waits for the rest of the
 * body answers nothing.
 */
function rawExchange(port: number, head: string, bodyParts: Buffer[], waitMs = 3_000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let response = '';
    let closedByServer = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, closedByServer });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => (response += chunk.toString()));
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('error', () => finish());
    socket.write(head);
    for (const part of bodyParts) socket.write(part);
  });
}

/** What a client that kept sending its body read back, and how the connection ended for it. */
interface UploadExchange {
  response: string;
  /** A reset or a failed write: the client may never have read the answer. */
  error?: NodeJS.ErrnoException;
}

/**
 * Sends `head`, then a chunked body of `chunks` chunks of `chunkBytes`, one every `intervalMs`,
 * as an uploader on a slow link does, whatever the server answers meanwhile; then ends its side
 * and collects what the server answered until the connection is closed.
 */
function slowChunkedUpload(
  port: number,
  head: string,
  chunks: number,
  chunkBytes: number,
  intervalMs: number,
): Promise<UploadExchange> {
  return new Promise((resolve) => {
    // Half-open allowed: the server's end of the answer does not stop the upload, as in most clients.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const exchange: UploadExchange = { response: '' };
    const chunk = Buffer.from(`${chunkBytes.toString(16)}\r\n${'a'.repeat(chunkBytes)}\r\n`);
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      if (sent++ < chunks) socket.write(chunk);
      else {
        clearInterval(timer);
        socket.end('0\r\n\r\n');
      }
    }, intervalMs);
    socket.on('data', (data) => (exchange.response += data.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => (exchange.error ??= error));
    socket.on('close', () => {
      clearInterval(timer);
      resolve(exchange);
    });
    socket.write(`${head}a\r\n{"email":"\r\n`);
  });
}

describe('hostile input', () => {
  let database: TestDatabase;
  let smtp: SmtpCatcher;
  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  let superAdmin: TestUser;
  let adminCookie: string;
  let port: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await SmtpCatcher.start();
    t = await createTestApp({ database, env: { SMTP_URL: smtp.url } });
    factory = factories(t);
    superAdmin = await factory.superAdmin();
    adminCookie = await sessionCookie(t, superAdmin);
    const server: Server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
    await database.drop();
  });

  const tenantCount = () => t.dataSource.getRepository(TenantEntity).count();
  const invitationRows = (tenantId: string) => t.dataSource.getRepository(InvitationEntity).findBy({ tenantId });
  const cookieOf = (token: string) => `${t.config.sessionCookieName}=${token}`;
  /** The claims the real issuer would put in a token of `user`, without exp or iat. */
  const claimsOf = (user: TestUser) => ({
    ...t.testIdentity.issuerClaims,
    sub: user.id,
    'cognito:username': user.id,
    email: user.email,
    token_use: 'id',
    ...(user.userType && { 'custom:user_type': user.userType }),
    ...(user.tenantId && { 'custom:tenant_id': user.tenantId }),
    ...(user.role && { 'custom:role': user.role }),
  });
  const now = () => Math.floor(Date.now() / 1000);

  describe('1. a token without exp, or with iat in the future, is no session', () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await factory.member((await factory.tenant()).id, { role: 'owner' });
    });

    const tenants = (token: string) => t.http.get('/api/admin/tenants').set('Cookie', cookieOf(token));
    const invite = (token: string) =>
      t.http.post('/api/org/invite').set('Cookie', cookieOf(token)).send({ email: 'x@example.com', role: 'member' });

    it('control: the same construction with exp and a current iat is a session', async () => {
      expect(
        (await tenants(t.testIdentity.signedPayload({ ...claimsOf(superAdmin), iat: now(), exp: now() + 300 }))).status,
      ).toBe(200);
      expect(
        (await invite(t.testIdentity.signedPayload({ ...claimsOf(owner), iat: now(), exp: now() + 300 }))).status,
      ).toBe(200);
    });

    it.each([
      ['without exp', () => ({ iat: now() })],
      ['without exp or iat', () => ({})],
      ['with exp that is not a number', () => ({ iat: now(), exp: `${now() + 300}` })],
      ['with iat in milliseconds', () => ({ iat: Date.now(), exp: now() + 300 })],
      ['with iat an hour ahead', () => ({ iat: now() + 3600, exp: now() + 7200 })],
    ])('a token %s: 401 on GET /api/admin/tenants and on POST /api/org/invite, nothing stored', async (_, times) => {
      const admin = await tenants(t.testIdentity.signedPayload({ ...claimsOf(superAdmin), ...times() }));
      expect(admin.status).toBe(401);
      expect(admin.body).toEqual(UNAUTHORIZED);
      const org = await invite(t.testIdentity.signedPayload({ ...claimsOf(owner), ...times() }));
      expect(org.status).toBe(401);
      expect(org.body).toEqual(UNAUTHORIZED);
      expect(await invitationRows(owner.tenantId!)).toHaveLength(1); // the control's only
    });
  });

  describe('2. a validly signed token whose payload is not an object is no session', () => {
    it.each([
      ['null', null],
      ['a number', 42],
      ['a string', 'admin'],
      ['an array', [{ sub: 'x' }]],
      ['true', true],
    ])(
      'payload %s: 401 on the org and tenant routes, 403 on the other admin routes (spec section 5)',
      async (_, payload) => {
        const cookie = cookieOf(t.testIdentity.signedPayload(payload));
        const answers = await Promise.all([
          t.http.post('/api/org/invite').set('Cookie', cookie).send({ email: 'x@example.com', role: 'member' }),
          t.http.delete('/api/org/users/someone').set('Cookie', cookie),
          t.http.get('/api/admin/tenants').set('Cookie', cookie),
          t.http.post('/api/admin/tenants').set('Cookie', cookie).send({ name: 'Acme', type: 'business' }),
          t.http.get('/api/admin/super-admins').set('Cookie', cookie),
          t.http.get('/api/admin/users/someone').set('Cookie', cookie),
        ]);
        expect(answers.map((res) => [res.status, res.body])).toEqual([
          [401, UNAUTHORIZED],
          [401, UNAUTHORIZED],
          [401, UNAUTHORIZED],
          [401, UNAUTHORIZED],
          [403, FORBIDDEN],
          [403, FORBIDDEN],
        ]);
      },
    );
  });

  describe('3. an address with control characters is refused by the validator', () => {
    it.each([
      ['CR/LF in a quoted local part', '"a\r\nBcc: x@evil.example"@example.test'],
      ['LF alone', '"a\nBcc: x@evil.example"@example.test'],
      ['a tab', '"a\tb"@example.test'],
      ['NUL', '"a\u0000b"@example.test'],
    ])('%s: 400 "Invalid email address", nothing stored, nothing reaches the SMTP server', async (_, email) => {
      const inviter = await newInviter(t);
      await outboxSettled(t.dataSource);
      smtp.messages.length = 0;
      const res = await t.http.post('/api/org/invite').set('Cookie', inviter.cookie).send({ email, role: 'member' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_EMAIL);
      expect(await invitationRows(inviter.tenant.id)).toEqual([]);
      await outboxSettled(t.dataSource);
      expect(smtp.messages).toEqual([]);
    });

    it('control: a quoted local part without control characters is still an address', async () => {
      const inviter = await newInviter(t);
      const res = await t.http
        .post('/api/org/invite')
        .set('Cookie', inviter.cookie)
        .send({ email: '"a b"@example.test', role: 'member' });
      expect(res.status).toBe(200);
    });
  });

  describe('4. deep nesting is a cheap 400', () => {
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const post = (path: string, body: string, cookie?: string) => {
      const request = t.http.post(path).set('Content-Type', 'application/json');
      if (cookie) request.set('Cookie', cookie);
      return request.send(body);
    };

    it.each([
      ['objects 5,000 deep', objects(5_000)],
      ['arrays 20,000 deep', arrays(20_000)],
      ['objects 33 deep inside a field', `{"email":${objects(33)},"role":"member"}`],
    ])('%s: 400 on invite (with and without a session) and on tenant creation, nothing stored', async (_, body) => {
      const inviter = await newInviter(t);
      const before = await tenantCount();
      for (const res of [
        await invalidRequest(() => post('/api/org/invite', body)),
        await invalidRequest(() => post('/api/org/invite', body, inviter.cookie)),
        await invalidRequest(() => post('/api/admin/tenants', body, adminCookie)),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(TOO_DEEP);
      }
      expect(await invitationRows(inviter.tenant.id)).toEqual([]);
      expect(await tenantCount()).toBe(before);
    });

    it('control: nesting within the bound still reaches the rules', async () => {
      const res = await post(
        '/api/admin/tenants',
        `{"name":"Acme","type":"business","extra":${objects(30)}}`,
        adminCookie,
      );
      expect(res.status).toBe(201);
    });
  });

  describe('5. a body over the limit is refused as soon as that is known, and the connection closed', () => {
    const head = (path: string, framing: string) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nCookie: ${adminCookie}\r\n${framing}\r\n\r\n`;

    it('a declared Content-Length of 50 MB: 413 before any of the body is sent, then the server closes', async () => {
      const before = await tenantCount();
      const { response, closedByServer } = await rawExchange(
        port,
        head('/api/admin/tenants', `Content-Length: ${50 * 1024 * 1024}`),
        [],
      );
      expect(response).toMatch(/^HTTP\/1\.1 413 /);
      expect(response).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toEqual(TOO_LARGE);
      expect(closedByServer).toBe(true);
      expect(await tenantCount()).toBe(before);
    });

    it('a chunked body: 413 once it passes the limit, without waiting for its end, then the server closes', async () => {
      const chunk = Buffer.from(`${(16 * 1024).toString(16)}\r\n${'x'.repeat(16 * 1024)}\r\n`);
      const { response, closedByServer } = await rawExchange(
        port,
        head('/api/admin/tenants', 'Transfer-Encoding: chunked'),
        Array.from({ length: 8 }, () => chunk), // 128 kB, and the body never ends
      );
      expect(response).toMatch(/^HTTP\/1\.1 413 /);
      expect(response).toMatch(/\{"error":"Request body too large"\}/);
      expect(closedByServer).toBe(true);
    });

    it('a 1 MB chunked body sent slowly, without Content-Length: the client reads the 413 and its body, never a reset', async () => {
      const uploads: UploadExchange[] = [];
      for (let round = 0; round < 3; round++) {
        const upload = () =>
          slowChunkedUpload(port, head('/api/org/invite', 'Transfer-Encoding: chunked'), 16, 64 * 1024, 20);
        uploads.push(...(await Promise.all([upload(), upload(), upload(), upload()])));
      }
      for (const { response, error } of uploads) {
        expect(response).toMatch(/^HTTP\/1\.1 413 /);
        expect(response).toMatch(/\r\nconnection: close\r\n/i);
        expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toEqual(TOO_LARGE);
        expect(error).toBeUndefined();
      }
    });

    it('a body that never ends: after the 413 the server reads on for LINGER_MS or LINGER_BYTES at most, then closes', async () => {
      const started = Date.now();
      const { response } = await slowChunkedUpload(
        port,
        head('/api/org/invite', 'Transfer-Encoding: chunked'),
        Infinity,
        64 * 1024,
        20,
      );
      expect(response).toMatch(/^HTTP\/1\.1 413 /);
      expect(Date.now() - started).toBeLessThan(LINGER_MS + 1_000);
    });

    it('the server keeps serving afterwards', async () => {
      expect((await t.http.get('/api/admin/tenants').set('Cookie', adminCookie)).status).toBe(200);
    });
  });

  describe('6. only UTF-8 JSON is parsed', () => {
    const create = (contentType: string) =>
      t.http
        .post('/api/admin/tenants')
        .set('Cookie', adminCookie)
        .set('Content-Type', contentType)
        .send('{"name":"Acme","type":"business"}');

    it.each([
      'application/json; charset=utf-7',
      'application/json; charset=UTF-16',
      'application/json; charset=iso-8859-1',
    ])('%s: 415 in the error shape, nothing created', async (contentType) => {
      const before = await tenantCount();
      const res = await create(contentType);
      expect(res.status).toBe(415);
      expect(res.body).toEqual(NOT_UTF8);
      expect(await tenantCount()).toBe(before);
    });

    it.each(['application/json', 'application/json; charset=utf-8', 'application/json; charset="UTF-8"'])(
      'control: %s is parsed',
      async (contentType) => {
        expect((await create(contentType)).status).toBe(201);
      },
    );
  });
});

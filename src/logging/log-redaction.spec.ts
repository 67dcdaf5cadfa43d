import pino from 'pino';
import { Writable } from 'node:stream';
import { loggerOptions } from './http-logger';
import { loggableUrl, requestIdOf } from './log-redaction';

describe("the logger's redaction", () => {
  it('censors cookies, Authorization and tokens wherever a log call puts them', () => {
    const written: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString());
        done();
      },
    });
    const logger = pino(loggerOptions('info'), stream);
    logger.info(
      {
        cookie: 'id_token=c1',
        token: 't1',
        req: { headers: { cookie: 'id_token=c2', authorization: 'Bearer a1', 'set-cookie': 's1' }, token: 't2' },
        res: { headers: { 'set-cookie': 'id_token=s2' } },
      },
      'something happened',
    );
    const [line] = written;
    for (const secret of ['c1', 'c2', 't1', 't2', 'a1', 's1', 's2']) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({
      level: 'info',
      msg: 'something happened',
      req: { headers: { cookie: '[REDACTED]' } },
    });
  });
});

describe(loggableUrl.name, () => {
  it.each([
    ['/api/invitations/6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10', '/api/invitations/[REDACTED]'],
    ['/API/Invitations/secret', '/API/Invitations/[REDACTED]'],
    ['/api/invitations/secret?x=1', '/api/invitations/[REDACTED]?x=1'],
    ['/invitations/6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10', '/invitations/[REDACTED]'],
    ['/Invitations/secret/', '/Invitations/[REDACTED]/'],
    ['/invitations/secret?token=secret', '/invitations/[REDACTED]?token=[REDACTED]'],
    ['/api/invitations', '/api/invitations'],
    ['/api/invitations/', '/api/invitations/'],
    ['/setup/Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5', '/setup/[REDACTED]'],
    ['/setup', '/setup'],
    ['/api/setup/domains', '/api/setup/domains'],
    ['/api/admin/super-admins?limit=5&token=abc', '/api/admin/super-admins?limit=5&token=[REDACTED]'],
    ['/api/x?id_token=abc&accessToken=def&flag', '/api/x?id_token=[REDACTED]&accessToken=[REDACTED]&flag'],
    ['/api/admin/users/user-1', '/api/admin/users/user-1'],
  ])('%s is logged as %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });
});

describe(requestIdOf.name, () => {
  it('takes a sane x-request-id as it is', () => {
    expect(requestIdOf({ headers: { 'x-request-id': 'Root=1-67891233-abcdef012345678912345678' } })).toBe(
      'Root=1-67891233-abcdef012345678912345678',
    );
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['with a line break (log injection)', 'abc\n{"level":"error"}'],
    ['with quotes', 'a"b'],
    ['too long', 'a'.repeat(129)],
    ['repeated', ['a', 'b']],
  ])('makes a UUID when it is %s', (_, value) => {
    expect(requestIdOf({ headers: { 'x-request-id': value } })).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

// The stack's floor: NestJS on Express (FLOOR=nest), or Express alone (FLOOR=express), doing
// exactly the raw limit's work for GET and POST /api/invitations/{token} of ../shared/perf (its
// SQL, its pool settings), with nothing else: no middleware, no logging, no validation, no
// metrics, no headers. Not part of the service: a measuring stick for compare.sh, which shows how
// much of the distance to the raw limit (bare node:http) the framework takes before any feature.
// docs/benchmark.md tells how to run it.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';

const PORT = Number(process.env.PORT || 3000);
const poolOptions = {
  uri: process.env.DATABASE_URL,
  connectionLimit: 8,
  maxIdle: 8,
  timezone: 'Z',
  dateStrings: true,
  enableKeepAlive: true,
};
const pool = mysql.createPool(poolOptions);
const multi = mysql.createPool({ ...poolOptions, multipleStatements: true });

const SQL_INVITATION = 'SELECT tenant_id, email, role, status, expires_at FROM tenant_invitations WHERE id = ?';
const SQL_TENANT_NAME = 'SELECT name FROM tenants WHERE id = ?';
const SQL_EXPIRE = "UPDATE tenant_invitations SET status = 'expired' WHERE id = ? AND status = 'pending'";
const SQL_ACCEPT = [
  'START TRANSACTION',
  "UPDATE tenant_invitations SET status = 'accepted' WHERE id = ? AND status <> 'accepted' AND expires_at >= ?",
  'SET @changed = ROW_COUNT()',
  'INSERT INTO audit_events (id, type, occurred_at, tenant_id, actor_id, actor_email, target_type, target_id, ' +
    "target_email, data) SELECT ?, 'invitation.accepted', ?, tenant_id, NULL, NULL, 'invitation', NULL, email, " +
    'CONCAT(\'{"role":"\', role, \'"}\') FROM tenant_invitations WHERE id = ? AND @changed = 1',
  'COMMIT',
  'SELECT tenant_id, role, status, expires_at FROM tenant_invitations WHERE id = ?',
].join(';\n');

const isoOf = (text) => `${text.replace(' ', 'T')}Z`;
const sqlTime = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

/** Spec 4.1, as the raw limit answers it: [status, body]. */
async function validate(token) {
  const [rows] = await pool.execute(SQL_INVITATION, [token]);
  if (rows.length === 0) return [404, { valid: false, error: 'INVALID' }];
  const invitation = rows[0];
  if (invitation.status === 'accepted') return [400, { valid: false, error: 'ALREADY_USED' }];
  if (Date.parse(isoOf(invitation.expires_at)) < Date.now()) {
    await pool.execute(SQL_EXPIRE, [token]);
    return [400, { valid: false, error: 'EXPIRED' }];
  }
  const [tenants] = await pool.execute(SQL_TENANT_NAME, [invitation.tenant_id]);
  const body = {
    valid: true,
    email: invitation.email,
    tenantId: invitation.tenant_id,
    tenantName: tenants[0]?.name || 'Organisation',
    role: invitation.role,
    expiresAt: isoOf(invitation.expires_at),
  };
  return [200, body];
}

/** Spec 4.2, as the raw limit answers it: the compare-and-set, its audit event and the row's read in one round trip. */
async function accept(token) {
  const now = Date.now();
  const [results] = await multi.query(SQL_ACCEPT, [token, sqlTime(now), randomUUID(), sqlTime(now), token, token]);
  const [row] = results[5];
  if (results[1].affectedRows === 1 && row) return [200, { success: true, tenantId: row.tenant_id, role: row.role }];
  if (!row) return [404, { success: false, error: 'INVALID' }];
  if (row.status === 'accepted') return [400, { success: false, error: 'ALREADY_USED' }];
  if (Date.parse(isoOf(row.expires_at)) < now) return [400, { success: false, error: 'EXPIRED' }];
  return [500, { success: false, error: 'INTERNAL_ERROR' }];
}

async function startExpress() {
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const answer = (work) => async (request, response) => {
    const [status, body] = await work(request.params.token);
    response.status(status).json(body);
  };
  app.get('/api/invitations/:token', answer(validate));
  app.post('/api/invitations/:token', answer(accept));
  app.listen(PORT, '127.0.0.1');
}

async function startNest() {
  const { NestFactory } = await import('@nestjs/core');
  const { Controller, Get, HttpCode, HttpException, Module, Param, Post } = await import('@nestjs/common');
  const answered = ([status, body]) => {
    if (status !== 200) throw new HttpException(body, status);
    return body;
  };
  class InvitationsController {
    validate(token) {
      return validate(token).then(answered);
    }
    accept(token) {
      return accept(token).then(answered);
    }
  }
  // The decorators that TypeScript would apply, applied by hand (plain JavaScript here).
  const method = (name, decorators) =>
    Reflect.decorate(
      decorators,
      InvitationsController.prototype,
      name,
      Object.getOwnPropertyDescriptor(InvitationsController.prototype, name),
    );
  for (const name of ['validate', 'accept']) {
    Reflect.defineMetadata('design:paramtypes', [String], InvitationsController.prototype, name);
    Param('token')(InvitationsController.prototype, name, 0);
  }
  method('validate', [Get(':token')]);
  method('accept', [Post(':token'), HttpCode(200)]);
  Controller('api/invitations')(InvitationsController);
  class FloorModule {}
  Module({ controllers: [InvitationsController] })(FloorModule);
  const app = await NestFactory.create(FloorModule, { logger: false, bodyParser: false });
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  app.getHttpAdapter().getInstance().set('etag', false);
  await app.listen(PORT, '127.0.0.1');
}

await (process.env.FLOOR === 'express' ? startExpress() : startNest());

// What the benchmarks that start the built service themselves share: the seed (one tenant, its
// owner and pending invitations), the owner's session cookie, and starting and stopping servers.
import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

/** Tenant `t1`, its owner `owner1` and `invitations` pending invitations (a multiple of 1,000); their tokens. */
export async function seedTenantWithInvitations(db, invitations) {
  const now = new Date();
  const expires = new Date(now.getTime() + 7 * 24 * 3600 * 1000);
  await db.query('INSERT INTO tenants (id, name, type, status, created_at) VALUES (?, ?, ?, ?, ?)', [
    't1',
    'Bench Org',
    'business',
    'active',
    now,
  ]);
  await db.query('INSERT INTO users (id, email, user_type, tenant_id, role, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
    'owner1',
    'owner@bench.example',
    'org',
    't1',
    'owner',
    now,
  ]);
  const tokens = [];
  for (let batch = 0; batch < invitations / 1000; batch++) {
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const id = randomUUID();
      tokens.push(id);
      return [id, 't1', `invitee-${batch}-${i}@bench.example`, 'member', 'pending', expires, 'owner1', now];
    });
    await db.query(
      'INSERT INTO tenant_invitations (id, tenant_id, email, role, status, expires_at, invited_by, created_at) VALUES ?',
      [rows],
    );
  }
  return tokens;
}

/** The seeded owner's session cookie, signed with the servers' AUTH_JWT_SECRET. */
export function ownerCookie(secret) {
  const claims = {
    email: 'owner@bench.example',
    token_use: 'id',
    'custom:user_type': 'org',
    'custom:tenant_id': 't1',
    'custom:role': 'owner',
  };
  return `id_token=${jwt.sign(claims, secret, { algorithm: 'HS256', subject: 'owner1', expiresIn: '4h' })}`;
}

/** Resolves once the server on `port` answers its readiness check (a minute at most). */
export async function untilReady(port) {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await delay(300);
  }
  throw new Error(`the server on port ${port} did not start`);
}

/** Stops servers spawned `detached` (their process groups), and waits out their 5 s drain in production. */
export async function stopServers(servers) {
  for (const server of servers) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await delay(servers.length ? 7_000 : 0);
}

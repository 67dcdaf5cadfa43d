/**
 * The sessions part of `npm run bench:scale` (docs/benchmark.md "At scale"): a million session rows
 * (SQLite a tenth) and a cutoff for every member of the big tenant, then an org route with a session
 * of the service's against the same route with today's token, a person's list of sessions, and the
 * purge's batch, so that the request's read and the purge show their cost at that size.
 */
import { sign } from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { parseConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { SeedSql } from './seed-database';

/** The measured owners' live sessions, besides the seeded ones. */
const MEASURED = [
  { id: 'sess-measured-small', user: 'small-member-1', tenant: 'tenant-small' },
  { id: 'sess-measured-big', user: 'big-member-1', tenant: 'tenant-big' },
];

/**
 * `count` sessions of the big tenant's `members` (each person about count / members of them): a third
 * revoked (its expiry brought forward to the revocation, as SessionsStore.revoke does), a third
 * expired, a third live, mixed within each person's (`members` is not a multiple of 3); every member
 * with a "not before" of 0.
 */
export function sessionSeedStatements(sql: SeedSql, count: number, members: number): [string, string][] {
  const { seq, cat, at, pad } = sql;
  const columns =
    'INSERT INTO sessions (id, user_id, tenant_id, kind, connection_id, created_at, last_used_at, expires_at, ' +
    'idle_seconds, user_agent, ip, revoked_at, revoked_reason) ';
  return [
    [
      `${count} sessions (a third revoked, a third expired)`,
      columns +
        `SELECT ${cat(`'sess-'`, pad('seq', 8))}, ${cat(`'big-member-'`, `(seq % ${members}) + 1`)}, 'tenant-big', ` +
        `'cli', NULL, ${at('seq')}, ${at('seq')}, ` +
        `CASE WHEN seq % 3 = 1 THEN ${at('seq + 3600')} WHEN seq % 3 = 0 THEN ${at('seq + 60')} ` +
        `ELSE ${at('86400 * 400 + seq')} END, 0, 'bench', '127.0.0.1', ` +
        `CASE WHEN seq % 3 = 0 THEN ${at('seq + 60')} ELSE NULL END, ` +
        `CASE WHEN seq % 3 = 0 THEN 'self' ELSE NULL END FROM ${seq(count)}`,
    ],
    [
      'the measured owners’ sessions',
      columns +
        'VALUES ' +
        MEASURED.map(
          (session) =>
            `('${session.id}', '${session.user}', '${session.tenant}', 'cli', NULL, ${at('0')}, ${at('0')}, ` +
            `${at('86400 * 400')}, 0, 'bench', '127.0.0.1', NULL, NULL)`,
        ).join(', '),
    ],
    [
      `${members} people's "not before"`,
      `INSERT INTO session_cutoffs (user_id, not_before) SELECT ${cat(`'big-member-'`, 'seq')}, 0 FROM ${seq(members)}`,
    ],
  ];
}

/** The token of a measured owner's session: the portal's claims and its `sid`, as SessionTokenIssuer signs them. */
export function measuredSessionCookie(tenant: 'small' | 'big', secret: string): string {
  const session = MEASURED.find((candidate) => candidate.tenant === `tenant-${tenant}`)!;
  const claims = {
    token_use: 'id',
    email: `member-1@${tenant}.example`,
    'custom:user_type': 'org',
    'custom:tenant_id': session.tenant,
    'custom:role': 'owner',
    sid: session.id,
  };
  return `id_token=${sign(claims, secret, { algorithm: 'HS256', subject: session.user, expiresIn: 7_200 })}`;
}

/**
 * One batch of the purge at this size, as SessionsStore.purgeEndedBefore runs it: the ended sessions'
 * ids by the expiry index, then their delete; milliseconds and rows.
 */
async function timePurgeBatch(dataSource: DataSource, cutoff: string): Promise<{ ms: number; rows: number }> {
  const started = process.hrtime.bigint();
  const batch: { id: string }[] = await dataSource.query(
    'SELECT id FROM sessions WHERE expires_at < ? ORDER BY expires_at LIMIT 500',
    [cutoff],
  );
  if (batch.length)
    await dataSource.query(`DELETE FROM sessions WHERE id IN (${batch.map(() => '?').join(', ')}) AND expires_at < ?`, [
      ...batch.map((row) => row.id),
      cutoff,
    ]);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, rows: batch.length };
}

/** One batch of the purge (500 of the ended two thirds of `sessions`), timed on the seeded database at `url`. */
export async function reportPurgeBatch(url: string, sessions: number): Promise<void> {
  const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url, DB_MIGRATIONS_RUN: 'false' });
  const dataSource = new DataSource(dataSourceOptions(config));
  await dataSource.initialize();
  const { ms, rows } = await timePurgeBatch(dataSource, '2026-06-01 00:00:00');
  await dataSource.destroy();
  const ended = Math.round((sessions * 2) / 3);
  console.log(`sessions' purge: one batch of ${rows} of ${ended} ended sessions in ${ms.toFixed(1)} ms`);
}

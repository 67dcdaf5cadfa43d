/**
 * The `sessions` group of `npm run bench` (docs/benchmark.md): a guarded org route (GET
 * /api/org/members) with a session of the service's (`sid`, one read of `sessions` beside the org
 * guard's) against the same route with today's token (no `sid`: the read finds no session row),
 * in paired rounds, alternating which goes first. The share is the median of the rounds' ratios.
 */
import autocannon from 'autocannon';

interface Measured {
  rps: number;
  p50: number;
  mean: number;
}

async function measure(url: string, cookie: string, seconds: number, connections: number): Promise<Measured> {
  const result = await autocannon({ url, connections, duration: seconds, headers: { cookie } });
  const ok = result.statusCodeStats?.['200']?.count ?? 0;
  if (ok !== result.requests.total) throw new Error(`${url}: ${result.requests.total - ok} answers were not 200`);
  return { rps: result.requests.total / seconds, p50: result.latency.p50, mean: result.latency.mean };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function sessionPairs(
  base: string,
  cookies: { portal: string; sid: string },
  options: { rounds: number; seconds: number; connections: number },
): Promise<void> {
  const url = `${base}/api/org/members`;
  const { rounds, seconds, connections } = options;
  await measure(url, cookies.sid, 2, connections); // warm-up, unreported
  const shares: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['portal', 'sid'] as const) : (['sid', 'portal'] as const);
    const measured: Partial<Record<'portal' | 'sid', Measured>> = {};
    for (const kind of order) measured[kind] = await measure(url, cookies[kind], seconds, connections);
    const { portal, sid } = measured as Record<'portal' | 'sid', Measured>;
    shares.push(sid.rps / portal.rps);
    console.log(
      `sessions round ${round + 1}: GET /api/org/members  today's token ${portal.rps.toFixed(0)} req/s p50 ${portal.p50} ms ` +
        `mean ${portal.mean.toFixed(2)} ms  |  sid session ${sid.rps.toFixed(0)} req/s p50 ${sid.p50} ms mean ${sid.mean.toFixed(2)} ms`,
    );
  }
  console.log(
    `sessions: a sid session's throughput is ${(median(shares) * 100).toFixed(1)} % of today's token's (median of ${rounds} paired rounds)`,
  );
}

// The cost of a SCIM create and of a filtered look-up (docs/scim.md), against a running server:
//   SCIM_SECRET=scim_… BASE=http://localhost:3000 node bench/scim.mjs
// Seeds SEED users (500) first, so that the look-up runs on a populated table; then SECONDS (8)
// of each scenario with CONNECTIONS (10) connections. Needs SCIM_RATE_LIMIT above the load.
import autocannon from 'autocannon';

const base = process.env.BASE ?? 'http://localhost:3000';
const secret = process.env.SCIM_SECRET;
const seconds = Number(process.env.SECONDS ?? 8);
const connections = Number(process.env.CONNECTIONS ?? 10);
const seed = Number(process.env.SEED ?? 500);
const run = `${Date.now().toString(36)}`;
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/scim+json' };
const user = (email) =>
  JSON.stringify({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: email,
    name: { givenName: 'Bench', familyName: 'User' },
    emails: [{ value: email, primary: true, type: 'work' }],
    externalId: email,
    active: true,
  });

for (let i = 0; i < seed; i++) {
  const res = await fetch(`${base}/scim/v2/Users`, {
    method: 'POST',
    headers,
    body: user(`seed-${run}-${i}@bench.example`),
  });
  if (res.status !== 201) throw new Error(`seed ${i}: ${res.status} ${await res.text()}`);
}

const report = (name, result) => {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(' ');
  console.log(
    `${name}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `mean ${result.latency.average.toFixed(2)} ms (${statuses}; ${connections} connections, ${seconds} s)`,
  );
};

let n = 0;
report(
  'POST /scim/v2/Users (a new person each)',
  await autocannon({
    url: `${base}/scim/v2/Users`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers,
        setupRequest: (request) => ({ ...request, body: user(`new-${run}-${n++}@bench.example`) }),
      },
    ],
  }),
);
const filter = encodeURIComponent(`userName eq "SEED-${run}-${Math.floor(seed / 2)}@BENCH.example"`);
report(
  'GET /scim/v2/Users?filter=userName eq (one of the seeded)',
  await autocannon({
    url: `${base}/scim/v2/Users?filter=${filter}`,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${secret}` },
  }),
);

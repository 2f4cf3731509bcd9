// The limiter's cost: the same authenticated tenant read for Business tenants (one Durable Object
// round trip per request) against Enterprise tenants (never counted, no object call). Goal >= 0.8.
// Requests rotate over many tenants of each plan so no Business tenant spends its 300/min budget:
// every measured response is a 200 (the non-2xx column must read 0). Both plans are warmed up (every
// limiter object exists) and measured in alternating rounds, so drift on a busy machine hits both.
// Run: npm run bench -- rate-limit   (or: node bench/rate-limit.mjs; BENCH_READ_PATH=/api-keys to change the read)
import { createTenant, load, report, startApi } from "./lib.mjs";

const READ_PATH = process.env.BENCH_READ_PATH ?? "/orders";
const TENANTS_PER_PLAN = 60;
const ROUNDS = 2;

/** Sums alternating rounds into one row: total requests over total time, worst tail latency. */
function combine(rounds) {
  return {
    requestsPerSecond: rounds.reduce((sum, r) => sum + r.requestsPerSecond, 0) / rounds.length,
    p50: Math.max(...rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

const api = await startApi({ port: 8820, persistTo: "/tmp/h2-state" });
try {
  const requestsFor = async (plan) => {
    const requests = [];
    for (let i = 0; i < TENANTS_PER_PLAN; i++) {
      const tenant = await createTenant(api.api, plan);
      requests.push({ method: "GET", path: `/api/v1${READ_PATH}`, headers: { "x-api-key": tenant.key } });
    }
    return requests;
  };
  const plans = { enterprise: await requestsFor("enterprise"), business: await requestsFor("business") };
  const url = `${api.url}/api/v1${READ_PATH}`;
  const check = await fetch(url, { headers: plans.business[0].headers });
  if (check.status !== 200 || check.headers.get("x-ratelimit-limit") !== "300") {
    throw new Error(
      `GET ${READ_PATH} as a Business tenant answered ${check.status} without the Business limit headers`,
    );
  }
  for (const requests of Object.values(plans)) await load({ url, requests, duration: 3 }); // warm-up
  const rounds = { enterprise: [], business: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [plan, requests] of Object.entries(plans)) rounds[plan].push(await load({ url, requests }));
  }
  const enterprise = combine(rounds.enterprise);
  report(
    `rate limiter cost: GET ${READ_PATH}, Business vs Enterprise (${ROUNDS} alternating rounds each)`,
    {
      [`Enterprise (no limiter) GET ${READ_PATH}`]: enterprise,
      [`Business (limiter object) GET ${READ_PATH}`]: combine(rounds.business),
    },
    enterprise,
  );
} finally {
  api.stop();
}

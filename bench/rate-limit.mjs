// The rate limiter's cost, with budget leases (docs/decisions/rate-limits.md). Four measurements, one run:
// 1. The same API-key read, GET /products?pageSize=20 (20 products), for Business tenants (leased budget) against
//    Enterprise tenants (never counted) and the bare hello, in alternating rounds. Goals: Business/Enterprise >= 0.9,
//    product list/bare hello >= 0.5. Requests rotate over many tenants so none spends its budget (non-2xx must be 0).
// 2. Limiter object calls per 1,000 requests of busy Business tenants (goal <= 20), counted by the Worker itself
//    (`X-Limiter-Calls`, the isolate's lease calls so far; one isolate under wrangler dev): one tenant at 80% of its
//    plan for 1,000 requests, four at 50% (each pays its own ramp-up), and one tenant bursting far over its plan.
//    Hand-backs of unused slots (at a lease's end) are included. This part alone takes about 7 minutes.
// 3. Sequential round trips (`hops=` of X-D1-Stats) per read and per write.
// Run: npm run bench -- rate-limit   (or: node bench/rate-limit.mjs)
import { createTenant, load, report, startApi, startHello } from "./lib.mjs";
import { seedProducts } from "./seed-products.mjs";

const READ = "/products?pageSize=20";
const TENANTS_PER_PLAN = 30;
const ROUNDS = 2;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Averages alternating rounds into one row: mean req/s, worst tail latency. */
function combine(rounds) {
  return {
    requestsPerSecond: rounds.reduce((sum, r) => sum + r.requestsPerSecond, 0) / rounds.length,
    p50: Math.max(...rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

const api = await startApi({ port: 8820, persistTo: "/tmp/bench-rate-limit-state", fresh: true });
const hello = await startHello({ port: 8821 });
try {
  const get = async (path, headers) => {
    const response = await fetch(`${api.api}${path}`, { headers });
    await response.arrayBuffer();
    return response;
  };
  const tenantWithProducts = async (plan, prefix) => {
    const tenant = await createTenant(api.api, plan);
    await seedProducts(api.api, tenant.key, 20, prefix);
    return tenant;
  };
  const keyHeaders = (tenant) => ({ "x-api-key": tenant.key });

  // 1. The limiter's cost on a read.
  const requestsFor = async (plan) => {
    const requests = [];
    for (let i = 0; i < TENANTS_PER_PLAN; i++) {
      const tenant = await tenantWithProducts(plan, `${plan}${i}`);
      requests.push({ method: "GET", path: `/api/v1${READ}`, headers: keyHeaders(tenant) });
    }
    return requests;
  };
  const plans = { enterprise: await requestsFor("enterprise"), business: await requestsFor("business") };
  const check = await get(READ, plans.business[0].headers);
  if (check.status !== 200 || check.headers.get("x-ratelimit-limit") !== "300") {
    throw new Error(
      `GET ${READ} as a Business tenant answered ${check.status} without the Business limit headers`,
    );
  }
  const url = `${api.api}${READ}`;
  await load({ url: hello.url, duration: 2 });
  for (const requests of Object.values(plans)) await load({ url, requests, duration: 3 }); // warm-up
  const rounds = { hello: [], enterprise: [], business: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.hello.push(await load({ url: hello.url }));
    for (const [plan, requests] of Object.entries(plans)) rounds[plan].push(await load({ url, requests }));
  }
  const baseline = combine(rounds.hello);
  const enterprise = combine(rounds.enterprise);
  const business = combine(rounds.business);
  report(
    `API-key GET ${READ}: Business (leased budget) vs Enterprise (no limiter) vs bare hello (${ROUNDS} alternating rounds)`,
    {
      "bare hello": baseline,
      [`Enterprise GET ${READ}`]: enterprise,
      [`Business GET ${READ}`]: business,
    },
    baseline,
  );
  console.log(
    `Business / Enterprise: ${(business.requestsPerSecond / enterprise.requestsPerSecond).toFixed(2)} (goal >= 0.9)`,
  );

  // 2. Object calls per 1,000 requests. The probe tenant asks the object on each of its (rare) requests,
  // so the calls between two probes are the difference minus the later probe's own call.
  const probe = await createTenant(api.api, "business");
  const callsSoFar = async () => Number((await get(READ, keyHeaders(probe))).headers.get("x-limiter-calls"));
  const callsPer1000 = async (title, tenants, options) => {
    const before = await callsSoFar();
    const requests = tenants.map((tenant) => ({
      method: "GET",
      path: `/api/v1${READ}`,
      headers: keyHeaders(tenant),
    }));
    const result = await load({ url, requests, amount: 1000, ...options });
    await sleep(26_000); // leases end and hand back their unused slots
    const calls = (await callsSoFar()) - before - 1;
    const admitted = result.total - result.non2xx;
    console.log(
      `| ${title} | ${result.total} | ${admitted} | ${result.non2xx} | ${calls} | ${((calls * 1000) / result.total).toFixed(1)} |`,
    );
  };
  console.log("\n## limiter object calls per 1,000 requests (goal <= 20 for a busy Business tenant)");
  console.log("| scenario | requests | admitted | refused (429) | object calls | calls per 1,000 |");
  console.log("|---|---|---|---|---|---|");
  const fresh = async (n) =>
    Promise.all(Array.from({ length: n }, (_, i) => tenantWithProducts("business", `c${i}`)));
  await sleep(26_000); // part 1's leases end and hand back first
  await callsPer1000("1 Business tenant at 80% of plan (4 req/s, 250 s)", await fresh(1), { overallRate: 4 });
  await callsPer1000("4 Business tenants at 50% of plan (2.5 req/s each, 100 s)", await fresh(4), {
    overallRate: 10,
  });
  await callsPer1000("1 Business tenant bursting (10 connections, no pause)", await fresh(1), {});

  // 3. Sequential round trips per request.
  const hops = (response) => /hops=(\d+)/.exec(response.headers.get("x-d1-stats") ?? "")?.[1] ?? "?";
  const ent = await tenantWithProducts("enterprise", "he");
  const biz = await tenantWithProducts("business", "hb");
  const firstAsk = hops(await get(READ, keyHeaders(await tenantWithProducts("business", "hf"))));
  for (let i = 0; i < 20; i++) await get(READ, keyHeaders(biz));
  await sleep(100); // the ask ahead of time lands
  const login = await fetch(`${api.api}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: biz.email, password: biz.password }),
  });
  const token = (await login.json()).data.token;
  const write = (tenant, n) =>
    fetch(`${api.api}/products`, {
      method: "POST",
      headers: { ...keyHeaders(tenant), "content-type": "application/json" },
      body: JSON.stringify({ sku: `W-${Date.now()}-${n}`, name: "Hop counter", price: 1 }),
    });
  console.log("\n## sequential round trips (hops) per request, from X-D1-Stats");
  console.log("| request | hops |");
  console.log("|---|---|");
  console.log(`| Enterprise, API key, GET ${READ} | ${hops(await get(READ, keyHeaders(ent)))} |`);
  console.log(`| Business, API key, GET ${READ}, asks the object | ${firstAsk} |`);
  console.log(
    `| Business, API key, GET ${READ}, admitted against a lease | ${hops(await get(READ, keyHeaders(biz)))} |`,
  );
  console.log(
    `| Business, JWT, GET ${READ}, admitted against a lease | ${hops(await get(READ, { authorization: `Bearer ${token}`, "x-tenant-id": biz.id }))} |`,
  );
  console.log(`| Enterprise, API key, POST /products | ${hops(await write(ent, 1))} |`);
  console.log(
    `| Business, API key, POST /products, admitted against a lease | ${hops(await write(biz, 2))} |`,
  );
} finally {
  api.stop();
  hello.stop();
}

// The hot path of an integration (issue #16 item 2, docs/decisions/scale-out.md), one run:
// 1. API-key GET /products?pageSize=20 of Enterprise tenants against the bare hello, alternating rounds (goal >= 0.5).
// 2. Sequential round trips (`hops=` of X-D1-Stats) per read and per write.
// Run: npm run bench -- hot-path   (or: node bench/hot-path.mjs)
import { createTenant, load, report, startApi, startHello } from "./lib.mjs";
import { seedProducts } from "./seed-products.mjs";

const READ = "/products?pageSize=20";
const TENANTS = 10;
const ROUNDS = 3;

const api = await startApi({ port: 8830, persistTo: "/tmp/bench-hot-path-state", fresh: true });
const hello = await startHello({ port: 8831 });
try {
  const tenants = [];
  for (let i = 0; i < TENANTS; i++) {
    const tenant = await createTenant(api.api, "enterprise");
    await seedProducts(api.api, tenant.key, 20, `H${i}`);
    tenants.push(tenant);
  }
  const requests = tenants.map((t) => ({
    method: "GET",
    path: `/api/v1${READ}`,
    headers: { "x-api-key": t.key },
  }));
  const url = `${api.api}${READ}`;
  await load({ url: hello.url, duration: 2 });
  await load({ url, requests, duration: 3 }); // warm-up
  const rounds = { hello: [], read: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.hello.push(await load({ url: hello.url }));
    rounds.read.push(await load({ url, requests }));
  }
  const mean = (rs) => ({
    requestsPerSecond: rs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / rs.length,
    p50: Math.max(...rs.map((r) => r.p50)),
    p99: Math.max(...rs.map((r) => r.p99)),
    non2xx: rs.reduce((sum, r) => sum + r.non2xx, 0),
  });
  report(
    `API-key GET ${READ} (Enterprise) vs bare hello (${ROUNDS} alternating rounds)`,
    { "bare hello": mean(rounds.hello), [`GET ${READ}`]: mean(rounds.read) },
    mean(rounds.hello),
  );

  const hops = (response) => /hops=(\d+)/.exec(response.headers.get("x-d1-stats") ?? "")?.[1] ?? "?";
  const send = async (path, init) => {
    const response = await fetch(`${api.api}${path}`, init);
    await response.arrayBuffer();
    return response;
  };
  const fresh = await createTenant(api.api, "enterprise");
  const key = { "x-api-key": fresh.key };
  const firstRead = hops(await send(READ, { headers: key }));
  const laterRead = hops(await send(READ, { headers: key }));
  const login = await fetch(`${api.api}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: fresh.email, password: fresh.password }),
  });
  const token = (await login.json()).data.token;
  const jwtRead = hops(
    await send(READ, { headers: { authorization: `Bearer ${token}`, "x-tenant-id": fresh.id } }),
  );
  const write = hops(
    await send("/products", {
      method: "POST",
      headers: { ...key, "content-type": "application/json" },
      body: JSON.stringify({ sku: `HOP-${Date.now()}`, name: "Hop counter", price: 1 }),
    }),
  );
  console.log("\n## sequential round trips (hops) per request, from X-D1-Stats (Enterprise tenant)");
  console.log("| request | hops |");
  console.log("|---|---|");
  console.log(`| API key, GET ${READ}, the key's first request in this isolate | ${firstRead} |`);
  console.log(`| API key, GET ${READ}, the key seen before | ${laterRead} |`);
  console.log(`| JWT, GET ${READ} | ${jwtRead} |`);
  console.log(`| API key, POST /products | ${write} |`);
} finally {
  api.stop();
  hello.stop();
}

// Lists as tenants grow: the same list, search, filter and sort requests against a tenant with
// 1,000 products and one with 100,000 (seeded through the import endpoint). Reports latency, the
// 100k/1k latency ratio (goal <= 1.5) and the D1 rows read per page (X-D1-Stats header).
// Run: npm run bench -- catalog   (or: node bench/catalog.mjs; seeding 100k takes a minute or two)
import { createTenant, load, startApi } from "./lib.mjs";
import { seedProducts } from "./seed-products.mjs";

const SCENARIOS = {
  "list (newest first)": "/products",
  "search a name (trigram)": "/products?search=brass%20hinge",
  "search a number": "/products?search=4242",
  "search a word in 5% of names": "/products?search=steel",
  "search 2 characters (prefix of 5% of names)": "/products?search=br",
  "filter category": "/products?category=cat-7",
  "filter status": "/products?status=Inactive",
  "sort by name": "/products?sort=name",
  "sort by price desc": "/products?sort=-price",
  "updatedSince matching every product": `/products?updatedSince=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`,
};

const api = await startApi({ port: 8830, persistTo: "/tmp/bench-catalog-state", fresh: true });
try {
  const small = await createTenant(api.api);
  const large = await createTenant(api.api);
  const started = Date.now();
  await seedProducts(api.api, small.key, 1_000, "S");
  await seedProducts(api.api, large.key, 100_000, "L");
  console.log(`seeded 1,000 + 100,000 products in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // An incremental sync asks for what changed since its last run: here, 10 new products per tenant.
  const since = new Date().toISOString();
  await seedProducts(api.api, small.key, 10, "S2");
  await seedProducts(api.api, large.key, 10, "L2");
  SCENARIOS["updatedSince (sync)"] = `/products?updatedSince=${encodeURIComponent(since)}`;

  const rowsRead = async (key, path) => {
    const response = await fetch(`${api.api}${path}`, { headers: { "x-api-key": key } });
    await response.arrayBuffer();
    return /rows-read=(\d+)/.exec(response.headers.get("x-d1-stats") ?? "")?.[1] ?? "?";
  };
  console.log("\n## catalog lists at 1,000 vs 100,000 products (pageSize 20)");
  console.log(
    "| scenario | p50 ms 1k | p50 ms 100k | req/s 1k | req/s 100k | latency ratio 100k/1k | rows read/page 1k | rows read/page 100k |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [name, path] of Object.entries(SCENARIOS)) {
    const run = (tenant) =>
      load({ url: `${api.api}${path}`, headers: { "x-api-key": tenant.key }, duration: 5 });
    await run(small); // warm-up
    const [a, b] = [await run(small), await run(large)];
    const mean = (r) => 1000 / r.requestsPerSecond;
    console.log(
      `| ${name} | ${a.p50} | ${b.p50} | ${a.requestsPerSecond.toFixed(0)} | ${b.requestsPerSecond.toFixed(0)} | ${(b.p50 / a.p50).toFixed(2)} (mean ${(mean(b) / mean(a)).toFixed(2)}) | ${await rowsRead(small.key, path)} | ${await rowsRead(large.key, path)} |`,
    );
  }
} finally {
  api.stop();
}

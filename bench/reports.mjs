// CSV downloads of the stock ledger (10,000 and 50,000 movements: time and the workerd process's memory)
// and of the per-product reports over a 20,000-product catalog.
// The data is seeded with SQL straight into the local D1 (the report is measured, not the write path).
// Run: npm run bench -- reports   (or: node bench/reports.mjs)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTenant, startApi } from "./lib.mjs";

const PORT = 8870;
const STATE = join(tmpdir(), "h7-state");
const SIZES = [10_000, 50_000];
const RUNS = 5;
const CATALOG = 20_000;

const uuid = () => crypto.randomUUID();
const quote = (value) => (value === null ? "null" : `'${String(value).replaceAll("'", "''")}'`);

/**
 * Ledger rows for one tenant: 100 products over 10 locations of one warehouse, all in November 2026;
 * plus `catalog` more products with one stock level each (one in nine below its reorder point of 5).
 */
function seedSql(tenantId, movements, catalog) {
  const now = "2026-11-01T00:00:00.000Z";
  const warehouse = uuid();
  const locations = Array.from({ length: 10 }, (_, i) => ({ id: uuid(), code: `A-${i}` }));
  const products = Array.from({ length: 100 }, (_, i) => ({ id: uuid(), sku: `BENCH-${i}` }));
  const lines = [
    `insert into warehouses (id, tenant_id, code, name, created_at, updated_at) values (${quote(warehouse)}, ${quote(tenantId)}, 'W1', 'Bench warehouse', '${now}', '${now}');`,
    ...locations.map(
      (l) =>
        `insert into locations (id, tenant_id, warehouse_id, code, name, type, created_at, updated_at) values (${quote(l.id)}, ${quote(tenantId)}, ${quote(warehouse)}, ${quote(l.code)}, ${quote(l.code)}, 'bin', '${now}', '${now}');`,
    ),
    ...products.map(
      (p) =>
        `insert into products (id, tenant_id, sku, name, cost_e4, created_at, updated_at) values (${quote(p.id)}, ${quote(tenantId)}, ${quote(p.sku)}, 'Bench product, "quoted"', 12345, '${now}', '${now}');`,
    ),
  ];
  const start = Date.parse(now);
  // D1 refuses statements over 100 KB: 200 rows a statement stays well under.
  for (let i = 0; i < movements; i += 200) {
    const values = [];
    for (let j = i; j < Math.min(i + 200, movements); j++) {
      const at = new Date(start + j * 1000).toISOString();
      const product = products[j % products.length];
      const location = locations[j % locations.length];
      values.push(
        `(${quote(uuid())}, ${quote(tenantId)}, ${quote(product.id)}, ${quote(location.id)}, ${quote(warehouse)}, ${(j % 7) + 1}, ${j + 1}, 'received', 'system', '${at}')`,
      );
    }
    lines.push(
      `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after, reason, actor_type, created_at) values ${values.join(", ")};`,
    );
  }
  if (catalog > 0) {
    const numbers = `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${catalog})`;
    const id = "printf('30000000-0000-4000-8000-%012d', i)";
    lines.push(
      `${numbers} insert into products (id, tenant_id, sku, name, category, cost_e4, reorder_point, created_at, updated_at) select ${id}, ${quote(tenantId)}, printf('CAT-%06d', (i * 7919) % ${catalog}), 'Catalog product', 'bulk', 12345, 5, '${now}', '${now}' from n;`,
      `${numbers} insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at) select ${quote(tenantId)}, ${id}, ${quote(locations[0].id)}, ${quote(warehouse)}, (i % 9) + 1, 0, '${now}' from n;`,
    );
  }
  return lines.join("\n");
}

/** Resident memory (KiB) of the workerd processes serving this port, found through wrangler's process group. */
function workerdRssKiB() {
  const table = execFileSync("ps", ["-eo", "pid=,pgid=,rss=,args="], { encoding: "utf8" }).split("\n");
  const wrangler = table.find((line) => line.includes("wrangler") && line.includes(`--port ${PORT}`));
  if (!wrangler) return 0;
  const pgid = wrangler.trim().split(/\s+/)[1];
  return table
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols[1] === pgid && cols.slice(3).join(" ").includes("workerd"))
    .reduce((sum, cols) => sum + Number(cols[2]), 0);
}

/** Downloads one CSV, sampling workerd's RSS meanwhile; returns time to first byte, total time, size and peak RSS. */
async function download(url, key) {
  let peak = workerdRssKiB();
  const sampler = setInterval(() => {
    peak = Math.max(peak, workerdRssKiB());
  }, 20);
  const started = performance.now();
  const response = await fetch(url, { headers: { "x-api-key": key } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const reader = response.body.getReader();
  let firstByte = 0;
  let bytes = 0;
  let rows = -1; // the header row
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByte) firstByte = performance.now() - started;
    bytes += value.length;
    for (const byte of value) if (byte === 10) rows++;
  }
  const total = performance.now() - started;
  clearInterval(sampler);
  return { firstByte, total, bytes, rows, peak };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

let api = await startApi({ port: PORT, persistTo: STATE, fresh: true });
const tenants = [];
for (const size of SIZES) tenants.push({ size, ...(await createTenant(api.api, "enterprise")) });
api.stop();
await new Promise((resolve) => setTimeout(resolve, 1000));

const dir = mkdtempSync(join(tmpdir(), "h7-seed-"));
for (const tenant of tenants) {
  const file = join(dir, `${tenant.size}.sql`);
  writeFileSync(file, seedSql(tenant.id, tenant.size, tenant.size === SIZES[0] ? CATALOG : 0));
  const seeded = spawnSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", api.persistTo, "--file", file, "--yes"],
    { encoding: "utf8", env: { ...process.env, CI: "true" } },
  );
  if (seeded.status !== 0)
    throw new Error(`seeding ${tenant.size} movements failed: ${seeded.stderr}${seeded.stdout}`);
}
rmSync(dir, { recursive: true, force: true });

api = await startApi({ port: PORT, persistTo: STATE });
try {
  const results = {};
  for (const tenant of tenants) {
    const url = `${api.api}/reports/stock-movements?from=2026-11-01&to=2026-11-30&format=csv`;
    await download(url, tenant.key); // warm-up
    const idle = workerdRssKiB();
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await download(url, tenant.key));
    const jsonStarted = performance.now();
    const page = await fetch(url.replace("format=csv", "format=json&pageSize=100"), {
      headers: { "x-api-key": tenant.key },
    });
    await page.text();
    results[tenant.size] = {
      rows: runs[0].rows,
      bytes: runs[0].bytes,
      firstByte: median(runs.map((r) => r.firstByte)),
      total: median(runs.map((r) => r.total)),
      jsonPage: performance.now() - jsonStarted,
      idleMiB: idle / 1024,
      peakGrowthMiB: (Math.max(...runs.map((r) => r.peak)) - idle) / 1024,
    };
  }
  console.log("\n## Reports: stock-movements CSV download (median of 5, after a warm-up)");
  console.log(
    "| movements | CSV MiB | first byte ms | total ms | rows/s | workerd RSS idle MiB | peak RSS growth MiB | growth / CSV size |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [size, r] of Object.entries(results)) {
    const mib = r.bytes / 1024 / 1024;
    console.log(
      `| ${size} (${r.rows} rows) | ${mib.toFixed(2)} | ${r.firstByte.toFixed(0)} | ${r.total.toFixed(0)} | ${(r.rows / (r.total / 1000)).toFixed(0)} | ${r.idleMiB.toFixed(0)} | ${r.peakGrowthMiB.toFixed(1)} | ${(r.peakGrowthMiB / mib).toFixed(2)} |`,
    );
  }
  const [small, large] = SIZES.map((size) => results[size]);
  const catalogOwner = tenants[0];
  console.log(
    `\n## Reports: per-product CSV downloads over ${CATALOG + 100} products (median of 5, after a warm-up)`,
  );
  console.log("| report | lines | first byte ms | total ms | lines/s |");
  console.log("|---|---|---|---|---|");
  for (const type of ["inventory-valuation", "low-stock"]) {
    const url = `${api.api}/reports/${type}?format=csv`;
    await download(url, catalogOwner.key);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await download(url, catalogOwner.key));
    const total = median(runs.map((r) => r.total));
    console.log(
      `| ${type} | ${runs[0].rows} | ${median(runs.map((r) => r.firstByte)).toFixed(0)} | ${total.toFixed(0)} | ${(runs[0].rows / (total / 1000)).toFixed(0)} |`,
    );
  }
  console.log(
    `\nratio 50k/10k: total time ${(large.total / small.total).toFixed(2)} (rows x5), peak RSS growth ${(large.peakGrowthMiB / Math.max(small.peakGrowthMiB, 0.1)).toFixed(2)}; JSON page of 100 (10k tenant): ${small.jsonPage.toFixed(0)} ms`,
  );
} finally {
  api.stop();
}

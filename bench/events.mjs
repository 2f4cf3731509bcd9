// The events feed with 10 vs 1,000,000 stored events, and stock as of an instant with a ledger of 10,000 vs
// 1,000,000 movements (goal for both: large / small latency <= 1.5). The data is seeded with SQL straight into
// the local D1 (the reads are measured, not the write path); each pair is measured in one run.
// Run: npm run bench -- events   (or: node bench/events.mjs); EVENTS_BENCH=feed or EVENTS_BENCH=asof measures one pair.
// On a shared machine the load drifts during a run, so the as-of pair is measured in alternation (small, large,
// then large, small, ...) and its ratio is the median of the rounds' ratios.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTenant, load, startApi } from "./lib.mjs";

const PORT = 8890;
const STATE = join(tmpdir(), "events-bench-state");
const LOAD = { connections: 4, duration: 8 };
const LEVELS = { products: 100, locations: 10 }; // 1,000 (product, location) levels in both ledgers
const START = Date.parse("2026-10-01T00:00:00.000Z");
const PART = process.env.EVENTS_BENCH ?? "all";
const measures = (part) => PART === "all" || PART === part;
const AS_OF_ROUNDS = 3;

const quote = (value) => `'${String(value).replaceAll("'", "''")}'`;
const numbers = (count) =>
  `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${count})`;

/** `count` inventory.adjusted events, numbered 1..count, one second apart. */
function eventsSql(tenantId, tag, count) {
  const at = `strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i, 'unixepoch')`;
  return `${numbers(count)} insert into outbox_events (id, tenant_id, type, payload, created_at, dispatched_at, processed_at, seq)
    select printf('${tag}-0000-4000-8000-%012d', i), ${quote(tenantId)}, 'inventory.adjusted',
      json_object('movementId', printf('${tag}-1111-4000-8000-%012d', i), 'delta', 1, 'reason', 'received',
        'stockLevel', json_object('onHand', i + 1, 'reserved', 0, 'available', i + 1)),
      ${at}, ${at}, ${at}, i + 1
    from n;`;
}

/** 1,000 levels and `count` ledger rows spread evenly over them, interleaved in time one second apart. */
function ledgerSql(tenantId, tag, count) {
  const now = new Date(START).toISOString();
  const perLevel = count / (LEVELS.products * LEVELS.locations);
  const warehouse = `${tag}-2222-4000-8000-000000000000`;
  const product = (expr) => `printf('${tag}-3333-4000-8000-%012d', ${expr})`;
  const location = (expr) => `printf('${tag}-4444-4000-8000-%012d', ${expr})`;
  const levels = LEVELS.products * LEVELS.locations;
  return [
    `insert into warehouses (id, tenant_id, code, name, created_at, updated_at) values (${quote(warehouse)}, ${quote(tenantId)}, 'W1', 'Bench', '${now}', '${now}');`,
    `${numbers(LEVELS.locations)} insert into locations (id, tenant_id, warehouse_id, code, name, type, created_at, updated_at)
      select ${location("i")}, ${quote(tenantId)}, ${quote(warehouse)}, printf('L-%02d', i), 'Bin', 'bin', '${now}', '${now}' from n;`,
    `${numbers(LEVELS.products)} insert into products (id, tenant_id, sku, name, cost_e4, created_at, updated_at)
      select ${product("i")}, ${quote(tenantId)}, printf('AS-OF-%04d', i), 'Bench product', 10000, '${now}', '${now}' from n;`,
    `${numbers(levels)} insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
      select ${quote(tenantId)}, ${product(`i / ${LEVELS.locations}`)}, ${location(`i % ${LEVELS.locations}`)}, ${quote(warehouse)},
        ${perLevel}, 0, '${now}' from n;`,
    // Row i: level i % 1000, its (i / 1000)-th movement, at START + i seconds.
    `${numbers(count)} insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
        reason, actor_type, created_at)
      select printf('${tag}-5555-4000-8000-%012d', i), ${quote(tenantId)}, ${product(`(i % ${levels}) / ${LEVELS.locations}`)},
        ${location(`(i % ${levels}) % ${LEVELS.locations}`)}, ${quote(warehouse)}, 1, i / ${levels} + 1, 'received', 'system',
        strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i, 'unixepoch')
      from n;`,
  ].join("\n");
}

/** Runs `sql` on the tenant's shard database in wrangler's local state. */
function seed(persistTo, tenant, name, sql) {
  const dir = mkdtempSync(join(tmpdir(), "events-seed-"));
  const file = join(dir, `${name}.sql`);
  writeFileSync(file, sql);
  const seeded = spawnSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      tenant.shard,
      "--local",
      "--persist-to",
      persistTo,
      "--file",
      file,
      "--yes",
    ],
    { encoding: "utf8", env: { ...process.env, CI: "true" } },
  );
  rmSync(dir, { recursive: true, force: true });
  if (seeded.status !== 0) throw new Error(`seeding ${name} failed: ${seeded.stderr}${seeded.stdout}`);
}

const cursorAt = (seq) => `evc1_${Buffer.from(String(seq)).toString("base64").replace(/=+$/, "")}`;

/** One request's D1 figures (development responses carry X-D1-Stats). */
async function d1Stats(url, key) {
  const response = await fetch(url, { headers: { "x-api-key": key } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  await response.text();
  return response.headers.get("x-d1-stats") ?? "";
}

let api = await startApi({ port: PORT, persistTo: STATE, fresh: true });
const tenants = {
  feedSmall: await createTenant(api.api),
  feedLarge: await createTenant(api.api),
  ledgerSmall: await createTenant(api.api),
  ledgerLarge: await createTenant(api.api),
};
api.stop();
await new Promise((resolve) => setTimeout(resolve, 1000));

const started = performance.now();
if (measures("feed")) {
  seed(api.persistTo, tenants.feedSmall, "feed-10", eventsSql(tenants.feedSmall.id, "e0000010", 10));
  seed(api.persistTo, tenants.feedLarge, "feed-1m", eventsSql(tenants.feedLarge.id, "e1000000", 1_000_000));
}
if (measures("asof")) {
  seed(
    api.persistTo,
    tenants.ledgerSmall,
    "ledger-10k",
    ledgerSql(tenants.ledgerSmall.id, "a0010000", 10_000),
  );
  seed(
    api.persistTo,
    tenants.ledgerLarge,
    "ledger-1m",
    ledgerSql(tenants.ledgerLarge.id, "a1000000", 1_000_000),
  );
}
console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);

api = await startApi({ port: PORT, persistTo: STATE });
try {
  const feed = [
    ["feed, 10 events: first page (limit 10)", tenants.feedSmall, "/events?limit=10"],
    ["feed, 1,000,000 events: first page (limit 10)", tenants.feedLarge, "/events?limit=10"],
    [
      "feed, 1,000,000 events: page after event 500,000 (limit 10)",
      tenants.feedLarge,
      `/events?limit=10&after=${cursorAt(500_000)}`,
    ],
    [
      "feed, 1,000,000 events: last page (limit 10)",
      tenants.feedLarge,
      `/events?limit=10&after=${cursorAt(999_995)}`,
    ],
    [
      "feed, 1,000,000 events: page of 100 after event 500,000",
      tenants.feedLarge,
      `/events?limit=100&after=${cursorAt(500_000)}`,
    ],
  ];
  // Halfway through each ledger's time: every level has half its rows before the instant.
  const asOfSmall = [
    "as-of stock, 10,000 movements: page of 100 levels",
    tenants.ledgerSmall,
    `/inventory/stock?pageSize=100&asOf=${new Date(START + 5_000 * 1000).toISOString()}`,
  ];
  const asOfLarge = [
    "as-of stock, 1,000,000 movements: page of 100 levels",
    tenants.ledgerLarge,
    `/inventory/stock?pageSize=100&asOf=${new Date(START + 500_000 * 1000).toISOString()}`,
  ];
  const asOfRounds = Array.from({ length: AS_OF_ROUNDS }, (_, i) =>
    (i % 2 ? [asOfLarge, asOfSmall] : [asOfSmall, asOfLarge]).map(([name, tenant, path]) => [
      `${name} (round ${i + 1})`,
      tenant,
      path,
    ]),
  );
  const scenarios = [
    ...(measures("feed") ? feed : []),
    ...(measures("asof")
      ? [
          ...asOfRounds.flat(),
          [
            "current stock, 1,000,000 movements: page of 100 levels",
            tenants.ledgerLarge,
            "/inventory/stock?pageSize=100",
          ],
        ]
      : []),
  ];
  const results = {};
  for (const [name, tenant, path] of scenarios) {
    const url = `${api.api}${path}`;
    const stats = await d1Stats(url, tenant.key); // also the warm-up
    results[name] = { ...(await load({ url, headers: { "x-api-key": tenant.key }, ...LOAD })), stats };
  }
  console.log(
    `\n## Events feed and stock as of an instant (${LOAD.connections} connections, ${LOAD.duration} s each)`,
  );
  console.log("| scenario | req/s | p50 ms | p99 ms | non-2xx | D1 (one request) |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `| ${name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.stats} |`,
    );
  }
  const ratio = (large, small) => results[large].p50 / results[small].p50;
  if (measures("feed")) {
    console.log(
      `\nfeed p50 1M / 10 (middle page, limit 10): ${ratio(feed[2][0], feed[0][0]).toFixed(2)} (goal <= 1.5)`,
    );
  }
  if (measures("asof")) {
    const ratios = asOfRounds.map((round) => {
      const [small, large] = round[0][1] === tenants.ledgerSmall ? round : [round[1], round[0]];
      return ratio(large[0], small[0]);
    });
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
    console.log(
      `as-of p50 1M / 10k per round: ${ratios.map((r) => r.toFixed(2)).join(", ")}; median ${median.toFixed(2)} (goal <= 1.5)`,
    );
  }
} finally {
  api.stop();
}

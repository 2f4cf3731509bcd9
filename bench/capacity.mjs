// Bytes per row on a real local D1, for docs/capacity.md: one tenant gets products, stock levels, movements,
// sales orders and their events through the API; then the server stops, the shard's SQLite file is copied and
// VACUUMed, and SQLite's dbstat gives each table's pages (its indexes included) over its row count.
// Run: npm run bench -- capacity   (node 22's node:sqlite reads the file; the `node` devDependency provides it)
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createTenant, startApi } from "./lib.mjs";
import { seedProducts } from "./seed-products.mjs";

const PRODUCTS = 5_000;
const LOCATIONS = 40;
const STOCKED = 2_000; // distinct (product, location) stock levels
const ADJUSTMENTS_PER_LEVEL = 2;
const ORDERS = 500;
const PARALLEL = 8;

const api = await startApi({ port: 8880, persistTo: "/tmp/bench-capacity-state", fresh: true });
let persistTo;
try {
  persistTo = api.persistTo;
  const tenant = await createTenant(api.api, "enterprise");
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  const request = async (method, path, body) => {
    const response = await fetch(`${api.api}${path}`, {
      method,
      headers,
      body: body && JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const inParallel = async (count, task) => {
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < count; i = next++) await task(i);
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  };

  await seedProducts(api.api, tenant.key, PRODUCTS);
  const products = [];
  for (let page = 1; products.length < STOCKED; page++) {
    const list = await request("GET", `/products?pageSize=100&page=${page}`);
    products.push(...list.items.filter((p) => p.status === "Active").map((p) => p.id));
  }
  const warehouse = await request("POST", "/warehouses", { code: "CAP", name: "Capacity" });
  const locations = [];
  for (let i = 0; i < LOCATIONS; i++) {
    const location = await request("POST", "/locations", {
      warehouseId: warehouse.id,
      code: `BIN-${i}`,
      name: `Bin ${i}`,
      type: "bin",
    });
    locations.push(location.id);
  }
  await inParallel(STOCKED * ADJUSTMENTS_PER_LEVEL, (i) =>
    request("POST", "/inventory/adjustments", {
      productId: products[i % STOCKED],
      locationId: locations[i % LOCATIONS],
      quantity: 1_000,
      reason: "capacity model",
    }),
  );
  await inParallel(ORDERS, (i) =>
    request("POST", "/orders/sales", {
      customerId: crypto.randomUUID(),
      lines: [0, 1, 2].map((k) => ({ productId: products[(i * 3 + k) % STOCKED], quantity: 1, price: 9.99 })),
      shippingAddress: { street: "1 Capacity St", city: "Load", zip: "10000" },
    }),
  );
} finally {
  api.stop();
}

// The shard files: every local D1 database of this state that holds tenant tables.
const dir = resolve(persistTo, "v3/d1/miniflare-D1DatabaseObject");
await new Promise((r) => setTimeout(r, 1_000));
const { DatabaseSync } = await import("node:sqlite");
const work = mkdtempSync(join(tmpdir(), "capacity-"));
const TABLES = {
  products: "product",
  stock_levels: "stock level",
  stock_movements: "movement",
  orders: "order (header)",
  order_lines: "order line",
  order_reservations: "reservation",
  order_status_history: "status history entry",
  outbox_events: "event",
};
console.log("\n## capacity: bytes per row after VACUUM (table and its indexes, dbstat)");
console.log("| row | rows | bytes | bytes per row |");
console.log("|---|---|---|---|");
for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".sqlite")) : []) {
  const copy = join(work, file);
  copyFileSync(join(dir, file), copy);
  const db = new DatabaseSync(copy);
  const hasProducts = db.prepare("select 1 from sqlite_schema where name = 'products'").get();
  if (!hasProducts || db.prepare("select count(*) n from products").get().n === 0) continue;
  db.exec("VACUUM");
  const bytes = new Map();
  const pages = db
    .prepare(
      "select s.tbl_name t, sum(d.pgsize) b from dbstat d join sqlite_schema s on s.name = d.name group by s.tbl_name",
    )
    .all();
  for (const { t, b } of pages) {
    // The product search index (products_fts and its shadow tables) is part of a product's cost.
    const table = t.startsWith("products_fts") ? "products" : t;
    bytes.set(table, (bytes.get(table) ?? 0) + b);
  }
  for (const [table, label] of Object.entries(TABLES)) {
    const rows = db.prepare(`select count(*) n from ${table}`).get().n;
    const size = bytes.get(table) ?? 0;
    console.log(`| ${label} (${table}) | ${rows} | ${size} | ${rows ? Math.round(size / rows) : "-"} |`);
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  console.log(`\nwhole shard file after VACUUM: ${total} bytes`);
}
spawnSync("rm", ["-rf", work]);

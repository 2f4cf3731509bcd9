// Sales orders created per second (3 lines each: one atomic batch that numbers the order, writes its
// lines and reserves stock under the oversell guard), and GET /orders/{id} against the bare hello Worker.
// Every order draws on the same three stock levels, so concurrent creations really contend for them.
// Run: npm run bench -- orders   (or: node bench/orders.mjs)
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTenant, load, report, startApi, startHello } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const STATE = "/tmp/h6-state";
const LINES = 3;

spawnSync("rm", ["-rf", STATE]);
const api = await startApi({ port: 8860, persistTo: STATE });
const hello = await startHello({ port: 8861 });

/** A warehouse, a location and the products, written straight into the local D1 (no catalog endpoints yet). */
function seedCatalog(tenantId) {
  const now = new Date().toISOString();
  const warehouseId = crypto.randomUUID();
  const locationId = crypto.randomUUID();
  const productIds = Array.from({ length: LINES }, () => crypto.randomUUID());
  const statements = [
    `insert into warehouses (id, tenant_id, code, name, active, created_at, updated_at)
     values ('${warehouseId}', '${tenantId}', 'BENCH', 'Bench', 1, '${now}', '${now}')`,
    `insert into locations (id, tenant_id, warehouse_id, code, name, type, active, created_at, updated_at)
     values ('${locationId}', '${tenantId}', '${warehouseId}', 'BIN-1', 'Bin', 'bin', 1, '${now}', '${now}')`,
    ...productIds.flatMap((productId, i) => [
      `insert into products (id, tenant_id, sku, name, status, reorder_point, created_at, updated_at)
       values ('${productId}', '${tenantId}', 'BENCH-${i}', 'Bench ${i}', 'Active', 0, '${now}', '${now}')`,
    ]),
  ];
  const result = spawnSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      STATE,
      "--command",
      statements.join(";\n"),
    ],
    { cwd: root, stdio: "ignore", env: { ...process.env, CI: "true" } },
  );
  if (result.status !== 0) throw new Error("could not seed the catalog for the orders benchmark");
  return { locationId, productIds };
}

try {
  const tenant = await createTenant(api.api, "enterprise");
  const { locationId, productIds } = seedCatalog(tenant.id);
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  for (const productId of productIds) {
    const stocked = await fetch(`${api.api}/inventory/adjustments`, {
      method: "POST",
      headers,
      body: JSON.stringify({ productId, locationId, quantity: 1_000_000_000, reason: "bench" }),
    });
    if (stocked.status !== 201) throw new Error(`POST /inventory/adjustments: ${stocked.status}`);
  }
  const body = JSON.stringify({
    customerId: crypto.randomUUID(),
    lines: productIds.map((productId) => ({ productId, quantity: 1, price: 9.99 })),
    shippingAddress: { street: "1 Bench St", city: "Load", zip: "10000" },
  });
  const first = await fetch(`${api.api}/orders/sales`, { method: "POST", headers, body });
  const created = await first.json();
  if (first.status !== 201) throw new Error(`POST /orders/sales: ${first.status} ${JSON.stringify(created)}`);
  const orderUrl = `${api.api}/orders/${created.data.id}`;

  await load({ url: hello.url, duration: 2 }); // warm-up
  await load({ url: orderUrl, headers, duration: 2 });
  const baseline = await load({ url: hello.url });
  const get = await load({ url: orderUrl, headers });
  const create = await load({ url: `${api.api}/orders/sales`, method: "POST", headers, body });
  report(
    "orders",
    {
      "bare hello": baseline,
      "GET /api/v1/orders/{id}": get,
      [`POST /api/v1/orders/sales (${LINES} lines, same stock rows)`]: create,
    },
    baseline,
  );
  console.log(
    `\nsales orders created per second: ${create.requestsPerSecond.toFixed(0)} (non-2xx ${create.non2xx})`,
  );
} finally {
  api.stop();
  hello.stop();
}

// Sales orders created per second (3 lines each: one atomic batch that numbers the order, writes its
// lines and reserves stock under the oversell guard), and GET /orders/{id} against the bare hello Worker.
// Every order draws on the same three stock levels, so concurrent creations really contend for them. A kit of
// those three products (one of each) is ordered the same way: one kit line that reserves its three components.
// Run: npm run bench -- orders   (or: node bench/orders.mjs)
import { createTenant, load, report, startApi, startHello } from "./lib.mjs";

const LINES = 3;

const api = await startApi({ port: 8860, persistTo: "/tmp/bench-orders-state", fresh: true });
const hello = await startHello({ port: 8861 });

/** POSTs through the API as the tenant; returns the created resource. */
async function post(path, headers, body) {
  const response = await fetch(`${api.api}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const json = await response.json();
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

try {
  const tenant = await createTenant(api.api, "enterprise");
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  const warehouse = await post("/warehouses", headers, { code: "BENCH", name: "Bench" });
  const location = await post("/locations", headers, {
    warehouseId: warehouse.id,
    code: "BIN-1",
    name: "Bin",
    type: "bin",
  });
  const productIds = [];
  for (let i = 0; i < LINES; i++) {
    const product = await post("/products", headers, { sku: `BENCH-${i}`, name: `Bench ${i}` });
    await post("/inventory/adjustments", headers, {
      productId: product.id,
      locationId: location.id,
      quantity: 1_000_000_000,
      reason: "bench",
    });
    productIds.push(product.id);
  }
  const body = JSON.stringify({
    customerId: crypto.randomUUID(),
    lines: productIds.map((productId) => ({ productId, quantity: 1, price: 9.99 })),
    shippingAddress: { street: "1 Bench St", city: "Load", zip: "10000" },
  });
  const kit = await post("/products", headers, {
    sku: "BENCH-KIT",
    name: "Bench kit",
    type: "kit",
    components: productIds.map((productId) => ({ productId, quantity: 1 })),
  });
  const kitBody = JSON.stringify({
    customerId: crypto.randomUUID(),
    lines: [{ productId: kit.id, quantity: 1, price: 29.97 }],
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
  const createKit = await load({ url: `${api.api}/orders/sales`, method: "POST", headers, body: kitBody });
  report(
    "orders",
    {
      "bare hello": baseline,
      "GET /api/v1/orders/{id}": get,
      [`POST /api/v1/orders/sales (${LINES} lines, same stock rows)`]: create,
      [`POST /api/v1/orders/sales (1 kit line of ${LINES} components, same stock rows)`]: createKit,
    },
    baseline,
  );
  console.log(
    `\nsales orders created per second: ${create.requestsPerSecond.toFixed(0)} (non-2xx ${create.non2xx}); ` +
      `kit orders: ${createKit.requestsPerSecond.toFixed(0)} (non-2xx ${createKit.non2xx})`,
  );
} finally {
  api.stop();
  hello.stop();
}

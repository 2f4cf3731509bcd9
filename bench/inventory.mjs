// Stock writes on one hot SKU (every request adjusts the same stock level, so every write contends
// for the same row) and a stock read, against the bare Hono hello Worker.
// Run: npm run bench -- inventory   (or: node bench/inventory.mjs)
import { createTenant, load, report, startApi, startHello } from "./lib.mjs";

const api = await startApi({ port: 8840, persistTo: "/tmp/bench-inventory-state" });
const hello = await startHello({ port: 8842 });
try {
  const tenant = await createTenant(api.api);
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  const post = async (path, body) => {
    const response = await fetch(`${api.api}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const product = await post("/products", { sku: `HOT-${Date.now()}`, name: "Hot SKU" });
  const warehouse = await post("/warehouses", { code: `WH-${Date.now()}`, name: "Bench" });
  const location = await post("/locations", {
    warehouseId: warehouse.id,
    code: "A-1",
    name: "A-1",
    type: "bin",
  });
  const adjust = {
    url: `${api.api}/inventory/adjustments`,
    method: "POST",
    headers,
    body: JSON.stringify({ productId: product.id, locationId: location.id, quantity: 1, reason: "bench" }),
  };
  const read = { url: `${api.api}/inventory/stock?productId=${product.id}`, headers };
  for (const target of [{ url: hello.url }, adjust, read]) await load({ ...target, duration: 2 }); // warm-up
  const baseline = await load({ url: hello.url });
  report(
    "inventory: adjustments on one hot SKU and a stock read vs bare hello",
    {
      "bare hello": baseline,
      "POST /inventory/adjustments (same SKU and location)": await load(adjust),
      "GET /inventory/stock?productId=": await load(read),
    },
    baseline,
  );
} finally {
  api.stop();
  hello.stop();
}

// Stock writes on one hot SKU (every request adjusts the same stock level, so every write contends
// for the same row) and a stock read, against the bare Hono hello Worker.
// Run: npm run bench -- inventory   (or: node bench/inventory.mjs)
import { adjustmentTarget, createTenant, load, report, startApi, startHello } from "./lib.mjs";

const api = await startApi({ port: 8840, persistTo: "/tmp/bench-inventory-state", fresh: true });
const hello = await startHello({ port: 8842 });
try {
  const tenant = await createTenant(api.api);
  const { adjust, headers, productId } = await adjustmentTarget(api.api, tenant, "HOT");
  const read = { url: `${api.api}/inventory/stock?productId=${productId}`, headers };
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

// A scan's feedback on the floor's Pick screen, online (goal: under 100 ms): the time from the keyboard-wedge
// scanner's Enter to the scan's sound (the tone's start, which the screen plays when it has taken or refused
// the scan), in Debian's Chromium at 390 x 844 against `wrangler dev`. Each scan kind is measured apart: a bin
// and a product the pick list names (answered on the device), a quantity (stored in IndexedDB before it is
// taken), a code the list does not name (refused on the device: a pick list names all it can take), and on the
// Count screen a code the device does not hold (asked of the API: GET /barcodes/{code}, then refused).
// Run: npm run bench -- floor-scan   (BENCH_PORT_OFFSET shifts the port; LINES sets the pick list's size)
import { cpus, loadavg } from "node:os";
import { chromium } from "playwright-core";
import { buildWeb } from "../scripts/build-web.mjs";
import { createTenant, startApi } from "./lib.mjs";

const LINES = Number(process.env.LINES ?? 30);
await buildWeb();
const server = await startApi({ port: 8821, persistTo: "/tmp/bench-floor-state", fresh: true });
const tenant = await createTenant(server.api);
const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
async function call(method, path, body) {
  const response = await fetch(`${server.api}${path}`, {
    method,
    headers,
    body: body && JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

// One order of LINES products, 1 unit each, in bin A1; its pick list.
const warehouse = await call("POST", "/warehouses", { code: "MAIN", name: "Main" });
const bin = await call("POST", "/locations", {
  warehouseId: warehouse.id,
  code: "A1",
  name: "A1",
  type: "bin",
});
const products = [];
for (let i = 1; i <= LINES; i++) {
  const product = await call("POST", "/products", { sku: `P${i}`, name: `Product ${i}`, price: 1 });
  await call("POST", "/inventory/adjustments", {
    productId: product.id,
    locationId: bin.id,
    quantity: 5,
    reason: "received",
  });
  products.push(product);
}
const order = await call("POST", "/orders/sales", {
  customerId: crypto.randomUUID(),
  lines: products.map((p) => ({ productId: p.id, quantity: 1, price: 1 })),
  shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
});
await call("PATCH", `/orders/${order.id}/status`, { status: "confirmed" });
const pickList = await call("POST", "/pick-lists", { warehouseId: warehouse.id, orderIds: [order.id] });
const lines = [...pickList.lines].sort((a, b) => a.lineNo - b.lineNo);
const count = await call("POST", "/inventory/counts", { warehouseId: warehouse.id });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
const context = await browser.newContext({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
});
// The time of each Enter and of each tone, on the page's clock.
await context.addInitScript(() => {
  const marks = { enters: [], tones: [] };
  Object.assign(window, { marks });
  document.addEventListener(
    "keydown",
    (e) => e.key === "Enter" && marks.enters.push(performance.now()),
    true,
  );
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    marks.tones.push(performance.now());
    return start.apply(this, args);
  };
});
const page = await context.newPage();
await page.goto(`${server.url}/app/pick/${pickList.id}`);
await page.getByLabel("Email").fill(tenant.email);
await page.getByLabel("Password").fill(tenant.password);
await page.getByRole("button", { name: "Sign in" }).click();
await page.getByLabel("Scan location").waitFor();

const timings = {
  "bin (on the device)": [],
  "product (on the device)": [],
  "quantity (stored, then sent)": [],
  "code the list does not name (on the device)": [],
  "code the device does not hold (API, Count screen)": [],
};
/** One scan as a wedge types it; the feedback's delay: from its Enter to the first tone after it. */
async function scan(kind, code) {
  const before = await page.evaluate(() => window.marks.tones.length);
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
  await page.waitForFunction((n) => window.marks.tones.length > n, before);
  const ms = await page.evaluate(() => {
    const { enters, tones } = window.marks;
    const enter = enters.at(-1);
    return tones.find((t) => t >= enter) - enter;
  });
  timings[kind].push(ms);
}
for (const line of lines) {
  await page.getByRole("region", { name: `Line ${line.lineNo}`, exact: true }).waitFor();
  await scan("code the list does not name (on the device)", "NOT-A-BIN");
  await scan("bin (on the device)", "A1");
  await scan("product (on the device)", line.sku);
  await page.getByLabel("Quantity").waitFor();
  await scan("quantity (stored, then sent)", "1");
}
await page.getByText("Pick list complete: every line is picked or short.").waitFor();
// The count of the same warehouse: at A1, a code no product of the count has is asked of the API each time.
await page.goto(`${server.url}/app/count/${count.id}`);
await page.getByLabel("Scan location").waitFor();
await scan("bin (on the device)", "A1");
await page.getByLabel("Scan product at A1").waitFor();
for (let i = 0; i < LINES; i++)
  await scan("code the device does not hold (API, Count screen)", `NOT-A-CODE-${i}`);
await browser.close();
server.stop();

const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
console.log(
  `\n## Floor scan feedback, online (${LINES}-line pick list; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${cpus().length} cores)`,
);
console.log("| scan | scans | p50 | p95 | max | goal < 100 ms |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const [kind, values] of Object.entries(timings)) {
  const p95 = quantile(values, 0.95);
  console.log(
    `| ${kind} | ${values.length} | ${quantile(values, 0.5).toFixed(0)} ms | ${p95.toFixed(0)} ms | ${Math.max(...values).toFixed(0)} ms | ${p95 < 100 ? "met (p95)" : "missed (p95)"} |`,
  );
}
